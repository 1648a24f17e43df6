import {
  DEFAULT_LITERATURE_SOURCES,
  DEFAULT_TOP_N,
  literatureConfigurationSchema,
  literatureInputSchema,
  TOP_N_MAX,
  TOP_N_MIN,
  type LiteratureSourceId,
  type StartLiteratureRequest,
} from '../../../common/teams/literature';
import type { DocumentFormat } from '../../../common/documents';
import type { SessionInputs } from '../shared/useSessionInput';

/**
 * What the researcher chooses on the screen besides the question: the sources, the years, the
 * number of works and the project's documents read as the library, and the start body they make.
 * Pure, so the rules are tested without a browser.
 */

export interface ReviewOptions {
  sources: LiteratureSourceId[];
  /** As typed; blank for no bound. */
  fromYear: string;
  toYear: string;
  topN: string;
  /** Project documents read as the library. */
  libraryDocumentIds: string[];
}

export const DEFAULT_REVIEW_OPTIONS: ReviewOptions = {
  sources: [...DEFAULT_LITERATURE_SOURCES],
  fromYear: '',
  toYear: '',
  topN: String(DEFAULT_TOP_N),
  libraryDocumentIds: [],
};

export const YEAR_MIN = 1500;
export const YEAR_MAX = 2100;

/** The formats of a project document the library can read (BibTeX, RIS or CSL-JSON, PDF). */
export const LIBRARY_DOCUMENT_FORMATS: readonly DocumentFormat[] = ['bib', 'json', 'txt', 'pdf'];

export interface OptionErrors {
  sources?: string;
  fromYear?: string;
  toYear?: string;
  topN?: string;
}

function year(text: string): number | undefined | null {
  const t = text.trim();
  if (!t) return undefined;
  if (!/^\d{4}$/.test(t)) return null;
  const y = Number(t);
  return y >= YEAR_MIN && y <= YEAR_MAX ? y : null;
}

/** What is wrong with the options, field by field (empty when they can be sent). */
export function optionErrors(options: ReviewOptions, libraryFiles = 0): OptionErrors {
  const errors: OptionErrors = {};
  const publicSources = options.sources.filter((s) => s !== 'library');
  const hasLibrary = libraryFiles > 0 || options.libraryDocumentIds.length > 0;
  if (publicSources.length === 0 && !(options.sources.includes('library') && hasLibrary)) {
    errors.sources = options.sources.includes('library')
      ? 'Add library files or choose project documents, or choose another source'
      : 'Choose at least one source';
  }
  const from = year(options.fromYear);
  const to = year(options.toYear);
  if (from === null) errors.fromYear = `A year from ${YEAR_MIN} to ${YEAR_MAX}`;
  if (to === null) errors.toYear = `A year from ${YEAR_MIN} to ${YEAR_MAX}`;
  if (from && to && from > to) errors.toYear = 'The last year comes before the first';
  const topN = options.topN.trim();
  if (!/^\d+$/.test(topN) || Number(topN) < TOP_N_MIN || Number(topN) > TOP_N_MAX)
    errors.topN = `A number from ${TOP_N_MIN} to ${TOP_N_MAX}`;
  return errors;
}

export function hasErrors(errors: OptionErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/**
 * The start body: the question and the options as the API takes them (the defaults left out,
 * so the server's stay the rule). The project goes in through the screen's session hook.
 */
export function startRequestOf(question: string, options: ReviewOptions): StartLiteratureRequest {
  const request: StartLiteratureRequest = {
    researchQuestion: question.trim(),
    workflow: 'basic_hitl',
  };
  const same =
    options.sources.length === DEFAULT_LITERATURE_SOURCES.length &&
    DEFAULT_LITERATURE_SOURCES.every((s) => options.sources.includes(s));
  if (!same)
    request.sources = DEFAULT_LITERATURE_SOURCES.filter((s) => options.sources.includes(s));
  const from = year(options.fromYear);
  const to = year(options.toYear);
  if (from) request.fromYear = from;
  if (to) request.toYear = to;
  const topN = Number(options.topN.trim());
  if (Number.isInteger(topN) && topN !== DEFAULT_TOP_N) request.topN = topN;
  if (options.libraryDocumentIds.length)
    request.libraryDocumentIds = [...options.libraryDocumentIds];
  return request;
}

/**
 * The question the screen opens with: `?question=` (from Ideation's "Start a literature
 * review"), trimmed and cut to what the API takes.
 */
export function questionFromAddress(params: URLSearchParams, max = 2000): string {
  return (params.get('question') ?? '').trim().slice(0, max);
}

/** The start form as a session's inputs fill it: its question, workflow and options. */
export interface ReviewForm {
  question: string;
  workflow: string;
  options: ReviewOptions;
}

/** Whether the form still holds what the screen opened with (no question, default options). */
export function isPristineReview(question: string, options: ReviewOptions, files = 0): boolean {
  return (
    question.trim() === '' &&
    files === 0 &&
    JSON.stringify(options) === JSON.stringify(DEFAULT_REVIEW_OPTIONS)
  );
}

/**
 * The form of a session reopened on the screen, from the runtime's `input` and `configuration`
 * (the options the server's defaults filled in included); undefined when they are not a review's.
 */
export function reviewFormOf(inputs: SessionInputs): ReviewForm | undefined {
  const input = literatureInputSchema.safeParse(inputs.input);
  if (!input.success) return undefined;
  const parsed = literatureConfigurationSchema.safeParse(inputs.configuration);
  const c = parsed.success ? parsed.data : literatureConfigurationSchema.parse({});
  return {
    question: input.data.researchQuestion,
    workflow: c.workflow,
    options: {
      sources: [...c.sources],
      fromYear: c.fromYear !== undefined ? String(c.fromYear) : '',
      toYear: c.toYear !== undefined ? String(c.toYear) : '',
      topN: String(c.topN),
      libraryDocumentIds: [...c.libraryDocumentIds],
    },
  };
}
