import pLimit, { type LimitFunction } from 'p-limit';
import { checkUserBaseUrl, guardedFetch } from './base-url-guard';
import { recordCall, usageOf } from './call-record';
import { lengthHint, details, modelName, newTally, type Resolved, type Tally } from './call-state';
import { ModelCallAbortedError, ModelCallError, ModelNotConfiguredError } from './errors';
import { resolveModelTarget } from './models';
import type {
  CallUsage,
  ModelAvailability,
  ModelCallContext,
  ModelHandle,
  ModelLayer,
  ModelLayerDeps,
} from './model-types';
import { buildPriceTable, type PriceTable } from './prices';
import { createLanguageModel } from './providers';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
import { createObjectCall } from './structured-call';
import { createTransport } from './transport';
import { createUsageStore } from './usage-store';

/**
 * The model layer's orchestration: resolves the user's provider and model for each call, runs
 * the call (transport.ts, structured-call.ts) and records what it cost (call-record.ts). The
 * public types live in model-types.ts and are re-exported here for existing importers.
 */
export type {
  CallUsage,
  ChatMessage,
  ModelAvailability,
  ModelCallContext,
  ModelHandle,
  ModelLayer,
  ModelLayerDeps,
  ModelLogger,
  ObjectInput,
  ObjectResult,
  PromptInput,
  TextResult,
} from './model-types';

export function createModelLayer(deps: ModelLayerDeps): ModelLayer {
  const { config, loadUserLlmSettings, log } = deps;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...deps.retry };
  const prices: PriceTable = buildPriceTable(config.llm.prices);
  const store = createUsageStore(deps.db);
  const limiters = new Map<string, LimitFunction>();
  const send = createTransport({ policy, log });
  const generateObject = createObjectCall({ config, log, send });

  function limiterFor(userId: string, max: number): LimitFunction {
    const concurrency = Math.max(1, Math.floor(max) || 1);
    let limiter = limiters.get(userId);
    if (!limiter) {
      limiter = pLimit(concurrency);
      limiters.set(userId, limiter);
    } else if (limiter.concurrency !== concurrency) {
      limiter.concurrency = concurrency;
    }
    return limiter;
  }

  async function resolve(userId: string): Promise<Resolved> {
    const settings = await loadUserLlmSettings(userId);
    const target = resolveModelTarget(config.llm, settings);
    let fetch: typeof globalThis.fetch | undefined;
    if (target.untrustedBaseUrl && target.baseUrl && !config.llm.allowPrivateBaseUrls) {
      await checkUserBaseUrl(target.baseUrl);
      fetch = guardedFetch;
    }
    return {
      target,
      settings,
      model: createLanguageModel(target, fetch),
      limiter: limiterFor(userId, settings.maxConcurrentRequests),
    };
  }

  async function availability(userId: string): Promise<ModelAvailability> {
    try {
      const { target } = await resolve(userId);
      return {
        configured: true,
        provider: target.provider,
        model: target.model,
        source: target.source,
      };
    } catch (error) {
      if (!(error instanceof ModelNotConfiguredError)) throw error;
      return { configured: false, provider: null, model: null, source: null, hint: error.message };
    }
  }

  function forCall(ctx: ModelCallContext): ModelHandle {
    return {
      generateText: (input) =>
        run(ctx, 'text', async (r, tally) => {
          const res = await send(ctx, r, tally, { ...input, output: undefined });
          if (!res.ok || !res.text.trim()) {
            throw new ModelCallError(
              'empty_output',
              `The model (${modelName(r.target)}) returned an empty reply` +
                (res.finishReason === 'length' ? lengthHint(r.settings) : '.'),
              details(r.target, tally),
            );
          }
          return { text: res.text };
        }).then(({ value, usage }) => ({ text: value.text, usage })),

      generateObject: (schema, input) =>
        run(ctx, 'object', (r, tally) => generateObject(ctx, r, tally, schema, input)).then(
          ({ value, usage }) => ({ object: value, usage }),
        ),
    };
  }

  /** Wraps one logical call: resolution, usage record (also on failure) and the log line. */
  async function run<V>(
    ctx: ModelCallContext,
    kind: 'text' | 'object',
    body: (r: Resolved, tally: Tally) => Promise<V>,
  ): Promise<{ value: V; usage: CallUsage }> {
    if (ctx.signal?.aborted) throw new ModelCallAbortedError(ctx.signal.reason);
    const r = await resolve(ctx.userId);
    const started = performance.now();
    const tally = newTally();
    let value: V | undefined;
    let failure: unknown;
    try {
      value = await body(r, tally);
    } catch (error) {
      failure = error;
    }
    const usage = usageOf(prices, r.target, tally, Math.round(performance.now() - started));
    if (tally.requests > 0) {
      await recordCall({ store, log }, ctx, kind, usage, failure);
    }
    if (failure !== undefined) throw failure;
    return { value: value as V, usage };
  }

  return {
    forCall,
    availability,
    async ensureAvailable(userId) {
      await resolve(userId);
    },
    usage: {
      forSession: store.forSession,
      forSessions: store.forSessions,
      breakdownForSession: store.breakdownForSession,
      forUser: store.forUser,
      listCalls: store.listCalls,
    },
  };
}
