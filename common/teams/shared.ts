import { z } from 'zod';
import { agentSessionSchema, FEEDBACK_MAX, sessionStatusSchema, type PhaseResult } from '../agents';

/**
 * What every team's contract shares: the phase table (each phase's key, number, name and result
 * schema, written once and read by the server's `defineTeam`, the team's routes and its screen),
 * the replies every team route gives in the same shape, and the one way to read a session's
 * results by phase. A team's own file (`common/teams/<team>.ts`) builds on these.
 */

// ---------------------------------------------------------------------------------------------
// Phase tables
// ---------------------------------------------------------------------------------------------

export interface PhaseRow<K extends string = string, S extends z.ZodType = z.ZodType> {
  key: K;
  /** The stepper's label and the runtime's phase name. */
  name: string;
  result: S;
}

type ResultsOfRows<Rows extends readonly PhaseRow[]> = {
  [R in Rows[number] as R['key']]: R['result'];
};

export interface PhaseTable<Rows extends readonly PhaseRow[] = readonly PhaseRow[]> {
  /** The rows in run order, each with its 1-based number. */
  readonly rows: ReadonlyArray<Rows[number] & { number: number }>;
  /** Each phase's result schema by key, in run order (what `defineTeam` takes as `results`). */
  readonly results: ResultsOfRows<Rows>;
  readonly keys: ReadonlyArray<Rows[number]['key']>;
  /** The 1-based number of a phase. */
  numberOf(key: Rows[number]['key']): number;
  /** The key of a phase number, or undefined outside the table. */
  keyOf(phase: number): Rows[number]['key'] | undefined;
}

/**
 * A team's phases in run order. Keys must be unique and must not look like numbers (JavaScript
 * would reorder such keys in `results`).
 */
export function definePhaseTable<const Rows extends readonly PhaseRow[]>(
  rows: Rows,
): PhaseTable<Rows> {
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.key)) throw new Error(`Phase table: duplicate key ${row.key}`);
    if (/^\d+$/.test(row.key)) throw new Error(`Phase table: key ${row.key} looks like a number`);
    seen.add(row.key);
  }
  const numbered = rows.map((row, i) => ({ ...row, number: i + 1 }));
  // Built from the rows, whose keys and schemas the mapped type pairs one to one.
  const results = Object.fromEntries(rows.map((r) => [r.key, r.result])) as ResultsOfRows<Rows>;
  return {
    rows: numbered,
    results,
    keys: rows.map((r) => r.key),
    numberOf(key) {
      const i = rows.findIndex((r) => r.key === key);
      if (i < 0) throw new Error(`Phase table: unknown key ${String(key)}`);
      return i + 1;
    },
    keyOf(phase) {
      return rows[phase - 1]?.key;
    },
  };
}

/** The results of a session read by phase key, each checked against its schema. */
export type PhaseResultsOf<T extends PhaseTable> = {
  [K in keyof T['results']]?: T['results'][K] extends z.ZodType ? z.output<T['results'][K]> : never;
};

/**
 * The value checked against its schema, or undefined when absent or not of that shape: a screen
 * shows what it can read and leaves the rest empty rather than breaking on an older session.
 */
export function parseOrUndefined<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.output<S> | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A session's results by phase key, from either shape the API carries them in: the session's
 * list of phase results (`AgentSession.results`, each with its key) or a record keyed by phase
 * number (the status replies). A result that does not match its schema is left out.
 */
export function readPhaseResults<T extends PhaseTable>(
  table: T,
  results: readonly Pick<PhaseResult, 'key' | 'result'>[] | Readonly<Record<number, unknown>>,
): PhaseResultsOf<T> {
  const byKey = new Map<string, unknown>();
  if (Array.isArray(results)) {
    for (const r of results as readonly Pick<PhaseResult, 'key' | 'result'>[]) {
      byKey.set(r.key, r.result);
    }
  } else {
    for (const [phase, value] of Object.entries(results)) {
      const key = table.keyOf(Number(phase));
      if (key !== undefined) byKey.set(key, value);
    }
  }
  const out: Record<string, unknown> = {};
  for (const row of table.rows) {
    const value = parseOrUndefined(row.result, byKey.get(row.key));
    if (value !== undefined) out[row.key] = value;
  }
  // Each value was parsed by its own row's schema above.
  return out as PhaseResultsOf<T>;
}

// ---------------------------------------------------------------------------------------------
// Replies and requests every team shares
// ---------------------------------------------------------------------------------------------

export const sessionIdField = z.uuid({ message: 'sessionId must be a UUID' });

export const feedbackTextField = z
  .string({ message: 'feedback is required' })
  .trim()
  .min(1, 'feedback is required')
  .max(FEEDBACK_MAX, `feedback must be at most ${FEEDBACK_MAX} characters`);

/** POST <team>/feedback: `{ feedback, sessionId }` (a team may extend it). */
export const teamFeedbackRequestSchema = z.object({
  feedback: feedbackTextField,
  sessionId: sessionIdField,
});
export type TeamFeedbackRequest = z.input<typeof teamFeedbackRequestSchema>;

/** What a team's start and feedback calls answer: the session as it now stands. */
export const teamStartReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  status: sessionStatusSchema,
  phase: z.number().int(),
  session: agentSessionSchema,
});
export type TeamStartReply = z.infer<typeof teamStartReplySchema>;

/** GET <team>/logs/{id}: every log line of the session. */
export const teamLogsReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  logs: z.array(z.string()),
});
export type TeamLogsReply = z.infer<typeof teamLogsReplySchema>;
