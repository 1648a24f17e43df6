import type { z } from 'zod';

/**
 * The value checked against its schema, or undefined when absent or not of that shape: a screen
 * shows what it can read and leaves the rest empty rather than breaking on an older session.
 */
export function parseOrUndefined<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.infer<S> | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A session's phase results (keyed by phase number, as the status reply carries them) read into
 * named fields, each checked against its phase's schema.
 */
export function readPhaseResults<M extends Record<string, readonly [number, z.ZodType]>>(
  results: Record<number, unknown>,
  byName: M,
): { [K in keyof M]?: z.infer<M[K][1]> } {
  // Each field is parsed by its own schema; TypeScript cannot follow the key-to-schema pairing
  // through the loop, so the mapped type is asserted once here.
  const entries = Object.entries(byName).map(([name, [phase, schema]]) => [
    name,
    parseOrUndefined(schema, results[phase]),
  ]);
  return Object.fromEntries(entries) as { [K in keyof M]?: z.infer<M[K][1]> };
}
