import { z } from 'zod';
import { sessionStatusSchema } from '../agents';
import {
  definePhaseTable,
  sessionIdField,
  teamStartReplySchema,
  type PhaseResultsOf,
} from './shared';

/**
 * The Literature Review team's contract: its phase table and workflow definition, the paper,
 * gap, trend and reference shapes, each phase's result, the calls of /api/literature-team, and
 * the screen's constants (texts, polling and retry rules). Server and screen import it.
 */

export const LITERATURE_TEAM_ID = 'literature';
export const LITERATURE_SUBSCRIPTION = 'literature-team';

// ---------------------------------------------------------------------------------------------
// Constants: the screen's texts and limits
// ---------------------------------------------------------------------------------------------

/** The workflows a session may run (the screen's selector describes each one). */
export const LITERATURE_WORKFLOW_VALUES = ['basic_hitl'] as const;
export const DEFAULT_LITERATURE_WORKFLOW = 'basic_hitl';

export const RESEARCH_QUESTION_REQUIRED = 'Please enter a research question first';
export const RESEARCH_QUESTION_MAX = 2000;
/** Reference titles are cut to this many characters. */
export const REFERENCE_TITLE_MAX = 200;
/** A reference line is kept only when it is longer than this. */
export const REFERENCE_LINE_MIN = 20;
/** A gap text is kept only when it is longer than this. */
export const GAP_TEXT_MIN = 10;
/** Works kept after ranking (the retrieved set reports cite by number). */
export const DEFAULT_TOP_N = 40;
export const TOP_N_MIN = 5;
export const TOP_N_MAX = 100;

export const LITERATURE_MESSAGES = {
  startFailed: 'Failed to start literature review',
  feedbackFailed: 'Failed to submit feedback',
  processError: 'Literature review process encountered an error',
  runtimeError: 'Runtime error in literature team',
  highDemand:
    'Service temporarily unavailable due to high demand. Please try again in a few minutes.',
  unknown: 'Unknown error',
} as const;

/**
 * How the screen polls: every 2 s, or 4 s while real-time messages keep arriving; after failures
 * the wait grows (doubling after 429 or 'high demand', one step at a time otherwise).
 */
export const LITERATURE_POLLING = {
  baseMs: 2000,
  /** When a real-time message arrived in the last `socketWindowMs`. */
  socketActiveMs: 4000,
  socketWindowMs: 12_000,
  /** After a 429 or 'high demand' error the delay doubles up to this. */
  highDemandMaxMs: 30_000,
  /** After another failure it grows by `stepMs` up to this. */
  failureMaxMs: 15_000,
  stepMs: 1000,
} as const;

/** A call answered 429 is tried again up to 5 times, 1 s doubled per retry up to 30 s, ±10%. */
export const LITERATURE_RETRY = {
  maxRetries: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  jitter: 0.1,
} as const;

/** Report preview from the logs: up to this many log fetches, this far apart. */
export const REPORT_PREVIEW_FETCHES = 3;
export const REPORT_PREVIEW_INTERVAL_MS = 400;

// ---------------------------------------------------------------------------------------------
// Entities
// ---------------------------------------------------------------------------------------------

export const LITERATURE_SOURCES = [
  'openalex',
  'crossref',
  'arxiv',
  'semantic_scholar',
  'library',
] as const;
export const literatureSourceSchema = z.enum(LITERATURE_SOURCES);
export type LiteratureSourceId = z.infer<typeof literatureSourceSchema>;
export const DEFAULT_LITERATURE_SOURCES: LiteratureSourceId[] = [
  'openalex',
  'crossref',
  'arxiv',
  'semantic_scholar',
  'library',
];

/** How the screen names each source. */
export const LITERATURE_SOURCE_LABELS: Record<LiteratureSourceId, string> = {
  openalex: 'OpenAlex',
  crossref: 'Crossref',
  arxiv: 'arXiv',
  semantic_scholar: 'Semantic Scholar',
  library: 'Your library',
};

/** A retrieved work as the screen shows it; `number` is its citation number in the session. */
export const paperSchema = z.object({
  number: z.number().int().min(1),
  title: z.string(),
  authors: z.array(z.string()),
  abstract: z.string(),
  key_insight: z.string(),
  methodology: z.string(),
  findings: z.string(),
  /** Landing page on a trusted academic or institutional host. */
  url: z.string().optional(),
  /** Publication date as precise as the source gives it. */
  published: z.string().optional(),
  year: z.number().int().optional(),
  doi: z.string().optional(),
  venue: z.string().optional(),
  citations: z.number().int().optional(),
  source: literatureSourceSchema,
  sources: z.array(literatureSourceSchema),
  /** The source's own id (OpenAlex W-id, DOI, arXiv id, paperId, citation key, file name). */
  sourceId: z.string(),
  /** How the three extracted fields were made: by the model from the abstract, or not at all. */
  extractedFrom: z.enum(['abstract', 'none']),
  score: z.number().optional(),
});
export type Paper = z.infer<typeof paperSchema>;

export const researchGapSchema = z.object({
  gap_description: z.string(),
  /** Older results carry the text here instead of in gap_description; either is read. */
  description: z.string().optional(),
  opportunity: z.string(),
  recommendation: z.string(),
  /** Citation numbers of the papers the gap rests on. */
  supporting_papers: z.array(z.number().int().min(1)),
});
export type ResearchGap = z.infer<typeof researchGapSchema>;

export const yearCountSchema = z.object({ year: z.number().int(), count: z.number().int() });

export const trendSchema = z.object({
  topic: z.string(),
  name: z.string().optional(),
  description: z.string(),
  /** Mean yearly publications of the last three complete years over the years before, minus 1. */
  growth: z.number().nullable(),
  counts: z.array(yearCountSchema),
  /** 'overall' is the question itself; 'emerging' a topic growing faster than it. */
  kind: z.enum(['overall', 'emerging', 'topic']),
});
export type Trend = z.infer<typeof trendSchema>;

export const referenceSchema = z.object({
  number: z.number().int().min(1),
  title: z.string().max(REFERENCE_TITLE_MAX),
  authors: z.array(z.string()),
  year: z.number().int().optional(),
  published: z.string().optional(),
  url: z.string().optional(),
  doi: z.string().optional(),
  venue: z.string().optional(),
  source: literatureSourceSchema,
  /** The formatted line (always longer than REFERENCE_LINE_MIN characters). */
  line: z.string(),
});
export type Reference = z.infer<typeof referenceSchema>;

export const sourceReportSchema = z.object({
  source: literatureSourceSchema,
  label: z.string(),
  count: z.number().int(),
  total: z.number().int().optional(),
  requests: z.number().int(),
  error: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------
// Input, configuration, phase results
// ---------------------------------------------------------------------------------------------

export const researchQuestionSchema = z
  .string({ message: RESEARCH_QUESTION_REQUIRED })
  .trim()
  .min(1, RESEARCH_QUESTION_REQUIRED)
  .max(
    RESEARCH_QUESTION_MAX,
    `researchQuestion must be at most ${RESEARCH_QUESTION_MAX} characters`,
  );

export const literatureInputSchema = z.object({ researchQuestion: researchQuestionSchema });

/** A library work imported at start (from uploaded BibTeX, RIS or PDF files). */
export const libraryWorkSchema = z.object({
  title: z.string(),
  authors: z.array(
    z.object({ name: z.string(), given: z.string().optional(), family: z.string().optional() }),
  ),
  year: z.number().int().optional(),
  published: z.string().optional(),
  doi: z.string().optional(),
  arxivId: z.string().optional(),
  venue: z.string().optional(),
  abstract: z.string().optional(),
  url: z.string().optional(),
  citations: z.number().int().optional(),
  sourceId: z.string(),
  type: z.string().optional(),
  keywords: z.array(z.string()).optional(),
});
export type LibraryWork = z.infer<typeof libraryWorkSchema>;

const yearField = z.number().int().min(1500).max(2100);

export const literatureConfigurationSchema = z.object({
  workflow: z.enum(LITERATURE_WORKFLOW_VALUES).default('basic_hitl'),
  topN: z.number().int().min(TOP_N_MIN).max(TOP_N_MAX).default(DEFAULT_TOP_N),
  sources: z.array(literatureSourceSchema).min(1).default(DEFAULT_LITERATURE_SOURCES),
  fromYear: yearField.optional(),
  toYear: yearField.optional(),
  /** BibTeX, RIS or CSL-JSON documents of the project, read as the library. */
  libraryDocumentIds: z.array(z.uuid()).max(20).default([]),
  /** Works imported from files uploaded at start. */
  library: z.array(libraryWorkSchema).max(5000).default([]),
});
export type LiteratureConfiguration = z.infer<typeof literatureConfigurationSchema>;

export const questionResultSchema = z.object({
  researchQuestion: z.string(),
  queries: z.array(z.string()).min(1),
  synonyms: z.array(z.string()),
  jelCodes: z.array(z.string()),
});

/** The search constraints a run works under (from the configuration and feedback). */
export const searchPlanSchema = z.object({
  queries: z.array(z.string()),
  fromYear: z.number().int().optional(),
  toYear: z.number().int().optional(),
  emphasis: z.enum(['relevance', 'recent', 'cited']).default('relevance'),
  /** Terms the researcher asked to focus on (added to the queries and to the ranking). */
  focus: z.array(z.string()).default([]),
  /** What the researcher asked for, as applied (for the log and the next revision). */
  notes: z.array(z.string()).default([]),
});
export type SearchPlan = z.infer<typeof searchPlanSchema>;

export const searchResultSchema = z.object({
  plan: searchPlanSchema,
  papers: z.array(paperSchema),
  gaps: z.array(researchGapSchema),
  trends: z.array(trendSchema),
  sources: z.array(sourceReportSchema),
  retrievedCount: z.number().int(),
  uniqueCount: z.number().int(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const gapsResultSchema = z.object({
  plan: searchPlanSchema,
  papers: z.array(paperSchema),
  gaps: z.array(researchGapSchema),
  trends: z.array(trendSchema),
  references: z.array(referenceSchema),
});
export type GapsResult = z.infer<typeof gapsResultSchema>;

export const removedCitationSchema = z.object({
  citation: z.string(),
  reason: z.string(),
});

export const flaggedClaimSchema = z.object({
  sentence: z.string(),
  works: z.array(z.number().int()),
  reason: z.string(),
  /**
   * 'unsupported': the cited abstracts do not support the sentence; 'unchecked': it could not be
   * checked (no abstract, or the check gave no verdict). Reports written before: unsupported.
   */
  kind: z.enum(['unsupported', 'unchecked']).default('unsupported'),
});
export type FlaggedClaim = z.infer<typeof flaggedClaimSchema>;

/** A figure of the report's prose found neither in the computed trends nor the cited abstracts. */
export const unverifiedFigureSchema = z.object({
  /** The figure as the report writes it ("45%", "1,250", "2019"). */
  figure: z.string(),
  sentence: z.string(),
});
export type UnverifiedFigure = z.infer<typeof unverifiedFigureSchema>;

/** The words a figure found in no computed or retrieved source is marked with in the report. */
export const UNVERIFIED_FIGURE_MARK = '**[unverified figure]**';

export const verificationSchema = z.object({
  citationsChecked: z.number().int(),
  citationsRemoved: z.array(removedCitationSchema),
  referencesRemoved: z.array(removedCitationSchema),
  claimsChecked: z.number().int(),
  claimsFlagged: z.array(flaggedClaimSchema),
  /** Figures (counts, growth rates, years) of the prose checked; reports written before: 0. */
  figuresChecked: z.number().int().default(0),
  figuresUnverified: z.array(unverifiedFigureSchema).default([]),
});
export type Verification = z.infer<typeof verificationSchema>;

export const reportResultSchema = z.object({
  finalReport: z.string(),
  references: z.array(referenceSchema),
  verification: verificationSchema,
});
export type ReportResult = z.infer<typeof reportResultSchema>;

export const completeResultSchema = z.object({
  finalReport: z.string(),
  reportDocumentId: z.string().nullable(),
  bibliographyDocumentId: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------------
// Phase table and workflow definition
// ---------------------------------------------------------------------------------------------

/** The team's phases in run order: the server's phases, its routes and the screen read it. */
export const literaturePhases = definePhaseTable([
  { key: 'question', name: 'Research Question', result: questionResultSchema },
  { key: 'search', name: 'Literature Search', result: searchResultSchema },
  { key: 'gaps', name: 'Gaps Validation', result: gapsResultSchema },
  { key: 'report', name: 'Report Generation', result: reportResultSchema },
  { key: 'complete', name: 'Completed', result: completeResultSchema },
]);
export type LiteraturePhaseKey = (typeof literaturePhases.keys)[number];
export type LiteratureResults = PhaseResultsOf<typeof literaturePhases>;

export interface LiteratureWorkflowPhase {
  label: string;
  description: string;
  requiresHuman: boolean;
  checkpointDescription?: string;
}

export interface LiteratureWorkflow {
  value: (typeof LITERATURE_WORKFLOW_VALUES)[number];
  label: string;
  description: string;
  phases: LiteratureWorkflowPhase[];
}

/** What the stepper says about each phase of the table (its label is the table's name). */
const BASIC_HITL_PHASES: Record<LiteraturePhaseKey, Omit<LiteratureWorkflowPhase, 'label'>> = {
  question: {
    description: 'Checks the question and turns it into search queries (synonyms, JEL terms).',
    requiresHuman: false,
  },
  search: {
    description:
      'Searches every source, merges and ranks the results, extracts each paper’s key ' +
      'insight, method and findings, computes trends from publication counts, proposes gaps.',
    requiresHuman: true,
    checkpointDescription:
      'Review the papers, gaps and trends. Feedback such as "only after 2010" searches again.',
  },
  gaps: {
    description: 'Revises the research gaps with your feedback and assembles the references.',
    requiresHuman: true,
    checkpointDescription: 'Check the research gaps and the references they rest on.',
  },
  report: {
    description:
      'Writes the review, verifies every citation against the retrieved works and flags ' +
      'claims the cited abstracts do not support.',
    requiresHuman: true,
    checkpointDescription: 'Read the report; feedback revises it.',
  },
  complete: {
    description: 'Saves the report and its bibliography as documents of the project.',
    requiresHuman: false,
  },
};

export const LITERATURE_WORKFLOWS: readonly LiteratureWorkflow[] = [
  {
    value: 'basic_hitl',
    label: 'Literature Review with Human Checkpoints',
    description:
      'Searches OpenAlex, Crossref, arXiv, Semantic Scholar and your own library, merges and ranks ' +
      'what it finds, maps research gaps and publication trends, and writes a review whose every ' +
      'citation is checked against the works it retrieved. You review the papers, the gaps and ' +
      'the report before anything is saved.',
    phases: literaturePhases.rows.map((row) => ({
      label: row.name,
      ...BASIC_HITL_PHASES[row.key],
    })),
  },
];

// ---------------------------------------------------------------------------------------------
// Calls under /api/literature-team
// ---------------------------------------------------------------------------------------------

/** A file sent with the start call for the library (BibTeX, RIS, CSL-JSON or PDF). */
export const libraryFileSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/\.(bib|bibtex|ris|json|pdf)$/i, 'library files must be .bib, .ris, .json or .pdf'),
  contentBase64: z.string().max(12_000_000),
});

export const startLiteratureRequestSchema = z.object({
  researchQuestion: researchQuestionSchema,
  workflow: z.enum(LITERATURE_WORKFLOW_VALUES).optional(),
  projectId: z.uuid({ message: 'projectId must be a project id' }).optional(),
  topN: z.number().int().min(TOP_N_MIN).max(TOP_N_MAX).optional(),
  sources: z.array(literatureSourceSchema).min(1).optional(),
  fromYear: yearField.optional(),
  toYear: yearField.optional(),
  libraryDocumentIds: z.array(z.uuid()).max(20).optional(),
  libraryFiles: z.array(libraryFileSchema).max(20).optional(),
});
export type StartLiteratureRequest = z.input<typeof startLiteratureRequestSchema>;

/** The start call's reply: the session as it now stands, and what the library files gave. */
export const startLiteratureReplySchema = teamStartReplySchema.extend({
  error: z.string().nullable(),
  /** What the uploaded library files gave (works read, entries skipped). */
  library: z
    .array(
      z.object({
        name: z.string(),
        works: z.number().int(),
        skipped: z.number().int(),
        matchedBy: z.string().optional(),
        error: z.string().optional(),
      }),
    )
    .optional(),
});
export type StartLiteratureReply = z.infer<typeof startLiteratureReplySchema>;

export const literatureSessionParamsSchema = z.object({ sessionId: sessionIdField });

/** What a session has produced so far, as the status and feedback replies carry it. */
export const literatureOutputsSchema = z.object({
  papers: z.array(paperSchema),
  researchGaps: z.array(researchGapSchema),
  trends: z.array(trendSchema),
  references: z.array(referenceSchema),
  finalReport: z.string().nullable(),
  verification: verificationSchema.nullable(),
  documents: z
    .object({ report: z.string().nullable(), bibliography: z.string().nullable() })
    .nullable(),
});
export type LiteratureOutputs = z.infer<typeof literatureOutputsSchema>;

/**
 * A session's outputs from its phase results: the papers, gaps and trends of the last search
 * (revised by gaps validation), the references of the report (else of gaps validation), the
 * report as saved (else as written) and its verification, and the saved documents.
 */
export function literatureOutputsOf(results: LiteratureResults): LiteratureOutputs {
  const { search, gaps, report, complete } = results;
  const found = gaps ?? search;
  return {
    papers: found?.papers ?? [],
    researchGaps: found?.gaps ?? [],
    trends: found?.trends ?? [],
    references: report?.references ?? gaps?.references ?? [],
    finalReport: complete?.finalReport ?? report?.finalReport ?? null,
    verification: report?.verification ?? null,
    documents: complete
      ? { report: complete.reportDocumentId, bibliography: complete.bibliographyDocumentId }
      : null,
  };
}

/** The feedback call's reply: the session as it now stands, with its outputs. */
export const literatureFeedbackReplySchema = teamStartReplySchema.extend({
  error: z.string().nullable(),
  ...literatureOutputsSchema.shape,
});
export type LiteratureFeedbackReply = z.infer<typeof literatureFeedbackReplySchema>;

export const literatureStatusReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  status: sessionStatusSchema,
  phase: z.number().int(),
  checkpoint: z.number().int().nullable(),
  checkpointData: z.unknown().nullable(),
  logs: z.array(z.string()),
  error: z.string().nullable(),
  updatedAt: z.string(),
  ...literatureOutputsSchema.shape,
});
export type LiteratureStatusReply = z.infer<typeof literatureStatusReplySchema>;

/** What a checkpoint shows (checkpoint 1: papers, gaps, trends; 2: + references; 3: report). */
export const literatureCheckpointDataSchema = z.object({
  papers: z.array(paperSchema).optional(),
  researchGaps: z.array(researchGapSchema).optional(),
  trends: z.array(trendSchema).optional(),
  references: z.array(referenceSchema).optional(),
  finalReport: z.string().optional(),
  verification: verificationSchema.optional(),
});
export type LiteratureCheckpointData = z.infer<typeof literatureCheckpointDataSchema>;

/** The gap's text, whichever of its two fields carries it. */
export function gapText(gap: Pick<ResearchGap, 'gap_description' | 'description'>): string {
  return (gap.gap_description || gap.description || '').trim();
}

/** The trend's name: its topic, or its name where an older result has no topic. */
export function trendName(trend: Pick<Trend, 'topic' | 'name'>): string {
  return (trend.topic || trend.name || '').trim();
}
