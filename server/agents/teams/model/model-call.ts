import type { ZodType } from 'zod';

/**
 * A model call that may not be possible: without a configured language model (or when the call
 * fails) the team keeps going with the library's computed model and says what is missing.
 */
export type ModelAttempt<T> =
  { ok: true; value: T } | { ok: false; reason: string; notConfigured: boolean };

export async function tryModel<T>(
  signal: AbortSignal,
  call: () => Promise<T>,
): Promise<ModelAttempt<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    if (signal.aborted) throw err;
    const message = err instanceof Error ? err.message : String(err);
    // ModelNotConfiguredError (server/agents/llm/errors.ts) carries this code
    if ((err as { code?: unknown }).code === 'model_not_configured') {
      return { ok: false, reason: message, notConfigured: true };
    }
    return { ok: false, reason: `The model call failed: ${message}`, notConfigured: false };
  }
}

/** The part of the phase's model handle the team uses (ctx.llm satisfies it). */
export interface ObjectModel {
  generateObject<T>(
    schema: ZodType<T>,
    input: {
      system?: string;
      prompt?: string;
      messages?: { role: 'user' | 'assistant'; content: string }[];
      schemaName?: string;
    },
  ): Promise<{ object: T }>;
}
