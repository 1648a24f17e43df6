import { z } from 'zod';
import type { PhaseResult } from '../../../common/agents';
import type { PhaseResultsOf, PhaseTable } from '../../../common/teams/shared';

/** Thrown when data read back from the database no longer matches the team's schemas. */
export class StoredDataError extends Error {}

/** The stored value parsed by its schema; a value that no longer fits raises StoredDataError. */
export function parseStored<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new StoredDataError(
      `The session's stored ${what} no longer matches the team's schema (` +
        z.prettifyError(parsed.error).replace(/\s+/g, ' ').slice(0, 300) +
        '); start a new session',
    );
  }
  return parsed.data;
}

/**
 * A session's results by phase key, each parsed by its phase's schema in the team's phase table
 * (`common/teams/<team>.ts`): what a team route reads from `kit.sessions.get(...)`. Phases that
 * have not run are absent. Strict, unlike the browser's `readPhaseResults`, which leaves out
 * what it cannot read: on the server a stored result that no longer matches its schema raises
 * StoredDataError, as a phase's `ctx.resultOf` does. Results of keys outside the table are
 * ignored; of a key stored twice, the later one counts.
 */
export function sessionResults<T extends PhaseTable>(
  session: { results: readonly Pick<PhaseResult, 'key' | 'result'>[] },
  table: T,
): PhaseResultsOf<T> {
  const byKey = new Map<string, unknown>();
  for (const r of session.results) byKey.set(r.key, r.result);
  const out: Record<string, unknown> = {};
  for (const row of table.rows) {
    const value = byKey.get(row.key);
    if (value === undefined || value === null) continue;
    out[row.key] = parseStored(row.result, value, `result of ${row.key}`);
  }
  // Each value was parsed by its own row's schema above.
  return out as PhaseResultsOf<T>;
}
