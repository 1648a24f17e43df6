import {
  generateText as sdkGenerateText,
  NoObjectGeneratedError,
  type ModelMessage,
  type Output,
} from 'ai';
import type { LimitFunction } from 'p-limit';
import { addUsage, type Resolved, type SendResult, type Tally, type Transient } from './call-state';
import { classifyFailure, finalError } from './classify';
import { ModelCallAbortedError } from './errors';
import type { ModelCallContext, ModelLogger, PromptInput } from './model-types';
import { PROVIDER_OPTIONS } from './providers';
import { backoffDelayMs, type RetryPolicy } from './retry';

/**
 * The transport: one request to the model with the user's settings, its concurrency slot, its
 * timeout and its retries (retry.ts: up to 5, honouring Retry-After).
 */

const AGENT_HEADER = 'x-econagents-agent';
const PHASE_HEADER = 'x-econagents-phase';

type SendInput = PromptInput & { output: ReturnType<typeof Output.object> | undefined };
export type Send = (
  ctx: ModelCallContext,
  r: Resolved,
  tally: Tally,
  input: SendInput,
) => Promise<SendResult>;

export function createTransport(deps: { policy: RetryPolicy; log: ModelLogger }): Send {
  const { policy, log } = deps;

  /**
   * One request to the model with retries. Each attempt takes one of the user's concurrency
   * slots for its duration only (not while waiting to retry) and has its own timeout.
   */
  return async function send(ctx, r, tally, input) {
    const timeoutMs = Math.max(1, r.settings.requestTimeoutSeconds * 1000);
    const messages = toModelMessages(input);
    for (let retry = 0; ; retry++) {
      let timedOut = false;
      const attempt = async (): Promise<SendResult> => {
        const timeout = AbortSignal.timeout(timeoutMs);
        timeout.addEventListener('abort', () => (timedOut = true), { once: true });
        const abortSignal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
        tally.requests++;
        try {
          const result = await sdkGenerateText({
            model: r.model,
            system: input.system,
            messages,
            ...(input.output ? { output: input.output } : {}),
            temperature: r.settings.temperature,
            maxOutputTokens: r.settings.maxTokens,
            maxRetries: 0,
            abortSignal,
            headers: { [AGENT_HEADER]: ctx.agent, [PHASE_HEADER]: ctx.phase },
            providerOptions: PROVIDER_OPTIONS,
          });
          addUsage(tally, result.usage);
          let output: unknown;
          try {
            output = input.output ? result.output : undefined;
          } catch {
            output = undefined; // no output parsed (e.g. cut off before any text)
          }
          return { ok: true, text: result.text, output, finishReason: result.finishReason };
        } catch (error) {
          if (NoObjectGeneratedError.isInstance(error)) {
            addUsage(tally, error.usage);
            return { ok: false, text: error.text ?? '', finishReason: error.finishReason };
          }
          throw error;
        }
      };

      let transient: Transient;
      try {
        return await inSlot(r.limiter, ctx.signal, attempt);
      } catch (error) {
        if (ctx.signal?.aborted) throw new ModelCallAbortedError(ctx.signal.reason);
        if (error instanceof ModelCallAbortedError) throw error;
        transient = classifyFailure(error, r, tally, timedOut, timeoutMs);
      }

      const waitMs = transient.retryAfterMs ?? backoffDelayMs(policy, retry);
      if (retry >= policy.maxRetries || waitMs > policy.maxRetryAfterMs) {
        throw finalError(transient, r, tally, retry, waitMs, policy.maxRetryAfterMs);
      }
      log.warn(
        {
          agent: ctx.agent,
          phase: ctx.phase,
          provider: r.target.provider,
          model: r.target.model,
          reason: transient.kind,
          status: transient.status,
          retry: retry + 1,
          waitMs: Math.round(waitMs * policy.delayScale),
        },
        'model call will be retried',
      );
      try {
        await policy.sleep(waitMs * policy.delayScale, ctx.signal);
      } catch {
        throw new ModelCallAbortedError(ctx.signal?.reason);
      }
    }
  };
}

/** Runs `task` in one of the user's slots; an abort while queued rejects at once. */
function inSlot<T>(
  limiter: LimitFunction,
  signal: AbortSignal | undefined,
  task: () => Promise<T>,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(new ModelCallAbortedError(signal.reason));
  const queued = limiter(() => {
    if (signal?.aborted) throw new ModelCallAbortedError(signal.reason);
    return task();
  });
  if (!signal) return queued;
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(new ModelCallAbortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    queued.then(resolvePromise, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function toModelMessages(input: PromptInput): ModelMessage[] {
  const messages: ModelMessage[] = (input.messages ?? []).map((m) => ({
    role: m.role,
    content: m.content,
  }));
  if (input.prompt !== undefined) messages.push({ role: 'user', content: input.prompt });
  if (messages.length === 0) throw new TypeError('A model call needs a prompt or messages');
  return messages;
}
