import { z } from 'zod';

/**
 * The Data Explorer's recent queries (spec: "Recent queries kept: 10, deduplicated by query
 * text"): the catalog searches a researcher ran, most recent first, kept per user in the
 * settings' `explorer` section so they survive a reload and follow the account.
 */
export const RECENT_QUERIES_KEPT = 10;
export const RECENT_QUERY_MAX_LENGTH = 200;

/** The list after running `query`: it moves to the front, an earlier copy goes, ten are kept. */
export function addRecentQuery(list: readonly string[], query: string): string[] {
  const q = query.trim().slice(0, RECENT_QUERY_MAX_LENGTH);
  if (q === '') return [...list];
  return [q, ...list.filter((x) => x !== q)].slice(0, RECENT_QUERIES_KEPT);
}

/** A sent list, checked and normalised: trimmed, de-duplicated (first kept), at most ten. */
export const recentQueriesInputSchema = z
  .array(
    z
      .string({ message: 'recentQueries must be a list of texts' })
      .trim()
      .min(1, 'recentQueries must not hold an empty query')
      .max(
        RECENT_QUERY_MAX_LENGTH,
        `a recent query is at most ${RECENT_QUERY_MAX_LENGTH} characters`,
      ),
    { message: 'recentQueries must be a list of texts' },
  )
  .max(50, 'recentQueries holds at most 50 queries')
  .transform((list) => [...new Set(list)].slice(0, RECENT_QUERIES_KEPT));
