import { z } from 'zod';

/**
 * Where each thing in a saved document came from. Every document a team saves carries a record
 * of the session that made it: the model used, the phases run, the inputs read, the records
 * retrieved, the computations made, and an origin for each reference, parameter value, table of
 * computed numbers and passage written by a model. Screens show the origin beside the item; a
 * passage or value of origin `model` is marked as written by the model and not checked.
 */

export const ITEM_ORIGINS = [
  'computed',
  'retrieved',
  'researcher',
  'library',
  'data',
  'model',
] as const;
export type ItemOrigin = (typeof ITEM_ORIGINS)[number];

/** What a researcher reads beside an item of each origin. */
export const ORIGIN_LABELS: Record<ItemOrigin, string> = {
  computed: 'Computed',
  retrieved: 'Retrieved and verified',
  researcher: 'Set by the researcher',
  library: 'Library value',
  data: 'From the data',
  model: 'Written by the model, not checked',
};

export const PROVENANCE_INPUT_KINDS = ['dataset', 'document', 'question', 'workflow-step'] as const;

export const provenanceItemSchema = z.object({
  /** Stable within the document, e.g. `reference:W123`, `parameter:beta`, `table:irfs`, `passage:theory`. */
  key: z.string(),
  origin: z.enum(ITEM_ORIGINS),
  /** What backs the origin: a record id, a computation id, the researcher's words, a source. */
  ref: z.string().optional(),
});
export type ProvenanceItem = z.infer<typeof provenanceItemSchema>;

const provenanceModelSchema = z.object({ provider: z.string(), id: z.string() });

export const provenancePhaseSchema = z.object({
  key: z.string(),
  startedAt: z.string().nullable(),
  /** Null for the phase that was running when the document was saved. */
  completedAt: z.string().nullable(),
});
export type ProvenancePhase = z.infer<typeof provenancePhaseSchema>;

export const provenanceInputSchema = z.object({
  kind: z.enum(PROVENANCE_INPUT_KINDS),
  id: z.string(),
  sha256: z.string().optional(),
});
export type ProvenanceInput = z.infer<typeof provenanceInputSchema>;

/** A record retrieved in the session; title, authors and year let a screen name the work. */
export const provenanceRecordSchema = z.object({
  kind: z.literal('work'),
  id: z.string(),
  doi: z.string().optional(),
  source: z.string(),
  title: z.string().optional(),
  authors: z.array(z.string()).optional(),
  year: z.number().int().optional(),
});
export type ProvenanceRecord = z.infer<typeof provenanceRecordSchema>;

export const provenanceComputationSchema = z.object({
  id: z.string(),
  /** e.g. 'dsge-solver', 'duckdb-profiler', 'sandbox:python'. */
  engine: z.string(),
  what: z.string(),
  version: z.string(),
});
export type ProvenanceComputation = z.infer<typeof provenanceComputationSchema>;

export const provenanceSchema = z.object({
  sessionId: z.uuid().nullable(),
  team: z.string().nullable(),
  projectId: z.uuid().nullable(),
  createdAt: z.string(),
  model: provenanceModelSchema.nullable(),
  /**
   * The phases that ran before the document was saved; the phase that saved it is last, with
   * `completedAt` null (it was still running).
   */
  phases: z.array(provenancePhaseSchema),
  inputs: z.array(provenanceInputSchema),
  records: z.array(provenanceRecordSchema),
  computations: z.array(provenanceComputationSchema),
  items: z.array(provenanceItemSchema),
});
export type Provenance = z.infer<typeof provenanceSchema>;

/** The provenance of a document nobody's session wrote (uploaded or created by hand). */
export function documentOnlyProvenance(doc: {
  projectId: string | null;
  created: string;
}): Provenance {
  return {
    sessionId: null,
    team: null,
    projectId: doc.projectId,
    createdAt: doc.created,
    model: null,
    phases: [],
    inputs: [],
    records: [],
    computations: [],
    items: [],
  };
}

/**
 * A work retrieved in a session, as a phase records it (`ctx.provenance.work`). The citation
 * gate accepts a reference only to one of these; `number` is the number the session's texts
 * cite it by ([3]), when they cite by number.
 */
export const recordedWorkSchema = z.object({
  id: z.string().min(1),
  /** Where it was retrieved: 'openalex', 'crossref', 'arxiv', 'library', ... */
  source: z.string().min(1),
  doi: z.string().optional(),
  title: z.string(),
  authors: z.array(z.string()),
  year: z.number().int().optional(),
  number: z.number().int().min(1).optional(),
});
export type RecordedWork = z.infer<typeof recordedWorkSchema>;

/**
 * What the runtime keeps of a session's provenance on the session row, written with each
 * phase's result: the model, the phases with their times, the inputs read, the works retrieved
 * (whole, so later phases' texts can be checked against them) and the computations made.
 */
export const sessionProvenanceSchema = z.object({
  model: provenanceModelSchema.nullable(),
  phases: z.array(provenancePhaseSchema),
  inputs: z.array(provenanceInputSchema),
  works: z.array(recordedWorkSchema),
  computations: z.array(provenanceComputationSchema),
});
export type SessionProvenance = z.infer<typeof sessionProvenanceSchema>;

export const EMPTY_SESSION_PROVENANCE: SessionProvenance = {
  model: null,
  phases: [],
  inputs: [],
  works: [],
  computations: [],
};

/** GET /api/documents/:id/provenance */
export const provenanceReplySchema = z.object({
  success: z.literal(true),
  provenance: provenanceSchema,
});
export type ProvenanceReply = z.infer<typeof provenanceReplySchema>;

/**
 * How a saved Markdown document marks a passage written by the model: the passage sits between
 * two HTML comments, and its first line is a quote that says so, so the mark is visible in any
 * Markdown viewer (a download opened elsewhere too) and the app's viewer shows the block marked:
 *
 *   <!-- origin:model -->
 *   > **Written by the model, not checked:** Theory
 *
 *   The passage...
 *   <!-- /origin:model -->
 *
 * Teams write it with `modelPassage(title, text)`, never by hand.
 */
export const MODEL_PASSAGE_START = '<!-- origin:model -->';
export const MODEL_PASSAGE_END = '<!-- /origin:model -->';
const MODEL_PASSAGE_NOTE = `> **${ORIGIN_LABELS.model}:**`;

/** A passage written by the model, marked for saved Markdown (see MODEL_PASSAGE_START). */
export function modelPassage(title: string, text: string): string {
  const label = title.replace(/\s+/g, ' ').trim() || 'Passage';
  return [
    MODEL_PASSAGE_START,
    `${MODEL_PASSAGE_NOTE} ${label}`,
    '',
    text.trim(),
    MODEL_PASSAGE_END,
  ].join('\n');
}

export type MarkdownSegment =
  { kind: 'text'; text: string } | { kind: 'model'; title: string; text: string };

/**
 * Splits Markdown into its ordinary text and its passages marked as written by the model (in
 * order), for a viewer that shows the marked ones as such. An unclosed marker runs to the end.
 */
export function splitModelPassages(markdown: string): MarkdownSegment[] {
  const out: MarkdownSegment[] = [];
  let rest = markdown.replace(/\r\n/g, '\n');
  for (;;) {
    const start = rest.indexOf(MODEL_PASSAGE_START);
    if (start < 0) break;
    if (rest.slice(0, start).trim()) out.push({ kind: 'text', text: rest.slice(0, start) });
    const afterStart = rest.slice(start + MODEL_PASSAGE_START.length);
    const end = afterStart.indexOf(MODEL_PASSAGE_END);
    let body = end < 0 ? afterStart : afterStart.slice(0, end);
    rest = end < 0 ? '' : afterStart.slice(end + MODEL_PASSAGE_END.length);
    body = body.replace(/^\s*\n/, '');
    let title = '';
    const firstLine = /^([^\n]*)(?:\n|$)/.exec(body)?.[1] ?? '';
    if (firstLine.startsWith(MODEL_PASSAGE_NOTE)) {
      title = firstLine.slice(MODEL_PASSAGE_NOTE.length).trim();
      body = body.slice(firstLine.length);
    }
    out.push({ kind: 'model', title, text: body.trim() });
  }
  if (rest.trim() || out.length === 0) out.push({ kind: 'text', text: rest });
  return out;
}
