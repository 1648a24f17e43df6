import type { FinishReason, LanguageModel, LanguageModelUsage } from 'ai';
import type { LimitFunction } from 'p-limit';
import type { ModelCallError, ModelCallErrorKind } from './errors';
import type { ModelTarget } from './models';
import type { UserLlmSettings } from '../../platform/llm-settings';

/**
 * The state of one logical model call, shared by the transport, the error classification and
 * the orchestration, and the wording helpers their messages use.
 */

/** Everything one call needs, resolved from the user's settings at the start of the call. */
export interface Resolved {
  target: ModelTarget;
  settings: UserLlmSettings;
  model: LanguageModel;
  limiter: LimitFunction;
}

/** Running totals of one logical call. */
export interface Tally {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  repaired: boolean;
}

export const newTally = (): Tally => ({
  requests: 0,
  inputTokens: 0,
  outputTokens: 0,
  repaired: false,
});

/** A failure worth another try, with the wait the provider asked for. */
export interface Transient {
  kind: Extract<ModelCallErrorKind, 'rate_limited' | 'server_error' | 'timeout' | 'network'>;
  status?: number;
  retryAfterMs?: number;
  message: string;
}

/** One HTTP request's outcome: a reply (parsed output in JSON-schema mode) or none parsed. */
export type SendResult =
  | { ok: true; text: string; output: unknown; finishReason: FinishReason }
  | { ok: false; text: string; finishReason: FinishReason | undefined };

export function addUsage(tally: Tally, usage: LanguageModelUsage | undefined): void {
  tally.inputTokens += usage?.inputTokens ?? 0;
  tally.outputTokens += usage?.outputTokens ?? 0;
}

export function details(
  target: ModelTarget,
  tally: Tally,
  status?: number,
): ModelCallError['details'] {
  return {
    provider: target.provider,
    model: target.model,
    requests: tally.requests,
    ...(status !== undefined ? { status } : {}),
  };
}

export const modelName = (target: ModelTarget) => `${target.provider} ${target.model}`;

export function originOf(target: ModelTarget): string {
  if (!target.baseUrl) return '';
  try {
    return ` at ${new URL(target.baseUrl).origin}`;
  } catch {
    return '';
  }
}

export function lengthHint(settings: UserLlmSettings): string {
  return (
    ` The reply was cut off at the ${settings.maxTokens}-token limit; raise Max tokens under ` +
    'Settings > AI.'
  );
}

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
