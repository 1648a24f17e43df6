import type { Tally } from './call-state';
import { ModelCallAbortedError, ModelCallError } from './errors';
import type { ModelTarget } from './models';
import type { CallUsage, ModelCallContext, ModelLogger } from './model-types';
import { estimateCostUsd, type PriceTable } from './prices';
import type { UsageStore } from './usage-store';

/** What a finished call cost, and its llm_calls row and log line (also for failed calls). */

export function usageOf(
  prices: PriceTable,
  target: ModelTarget,
  tally: Tally,
  latencyMs: number,
): CallUsage {
  return {
    provider: target.provider,
    model: target.model,
    keySource: target.source,
    inputTokens: tally.inputTokens,
    outputTokens: tally.outputTokens,
    totalTokens: tally.inputTokens + tally.outputTokens,
    costUsd: estimateCostUsd(prices, target.model, tally.inputTokens, tally.outputTokens),
    latencyMs,
    requests: tally.requests,
    repaired: tally.repaired,
  };
}

export async function recordCall(
  deps: { store: Pick<UsageStore, 'record'>; log: ModelLogger },
  ctx: ModelCallContext,
  kind: 'text' | 'object',
  usage: CallUsage,
  failure: unknown,
): Promise<void> {
  const errorKind =
    failure === undefined
      ? null
      : failure instanceof ModelCallError
        ? failure.kind
        : failure instanceof ModelCallAbortedError
          ? 'aborted'
          : 'error';
  const fields = {
    sessionId: ctx.sessionId ?? null,
    agent: ctx.agent,
    phase: ctx.phase,
    provider: usage.provider,
    model: usage.model,
    keySource: usage.keySource,
    kind,
    status: failure === undefined ? ('ok' as const) : ('error' as const),
    errorKind,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    latencyMs: usage.latencyMs,
    requests: usage.requests,
    repaired: usage.repaired,
    costUsd: usage.costUsd,
  };
  try {
    await deps.store.record({ userId: ctx.userId, ...fields });
  } catch (error) {
    // The call itself succeeded or failed on its own; losing its record must not change that.
    deps.log.error({ err: error, ...fields }, 'could not record model call usage');
  }
  deps.log.info(fields, failure === undefined ? 'model call' : 'model call failed');
}
