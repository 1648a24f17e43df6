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

export const provenanceSchema = z.object({
  sessionId: z.uuid().nullable(),
  team: z.string().nullable(),
  projectId: z.uuid().nullable(),
  createdAt: z.string(),
  model: z.object({ provider: z.string(), id: z.string() }).nullable(),
  phases: z.array(
    z.object({ key: z.string(), startedAt: z.string().nullable(), completedAt: z.string() }),
  ),
  inputs: z.array(
    z.object({
      kind: z.enum(PROVENANCE_INPUT_KINDS),
      id: z.string(),
      sha256: z.string().optional(),
    }),
  ),
  records: z.array(
    z.object({
      kind: z.literal('work'),
      id: z.string(),
      doi: z.string().optional(),
      source: z.string(),
    }),
  ),
  computations: z.array(
    z.object({ id: z.string(), engine: z.string(), what: z.string(), version: z.string() }),
  ),
  items: z.array(provenanceItemSchema),
});
export type Provenance = z.infer<typeof provenanceSchema>;

/** GET /api/documents/:id/provenance */
export const provenanceReplySchema = z.object({
  success: z.literal(true),
  provenance: provenanceSchema,
});
export type ProvenanceReply = z.infer<typeof provenanceReplySchema>;
