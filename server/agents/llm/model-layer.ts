import {
  APICallError,
  generateText as sdkGenerateText,
  NoObjectGeneratedError,
  Output,
  type FinishReason,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
} from 'ai';
import pLimit, { type LimitFunction } from 'p-limit';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/connect';
import {
  checkUserBaseUrl,
  findForbiddenAddress,
  guardedFetch,
  parseUserBaseUrl,
  refusalFor,
} from './base-url-guard';
import {
  ModelCallAbortedError,
  ModelCallError,
  ModelNotConfiguredError,
  ModelOutputError,
  type ModelCallErrorKind,
} from './errors';
import { resolveModelTarget, type ModelTarget } from './models';
import { buildPriceTable, estimateCostUsd, type PriceTable } from './prices';
import { createLanguageModel, PROVIDER_OPTIONS } from './providers';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfterMs, type RetryPolicy } from './retry';
import { promptedJsonInstructions, repairInstructions, validateReply } from './structured';
import type { LoadUserLlmSettings, UserLlmSettings } from './types';
import { createUsageStore, type UsageStore } from './usage-store';

// ---------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------

/** Who makes a call: every call is recorded with these. */
export interface ModelCallContext {
  userId: string;
  /** The agent session, when there is one (usage totals per session read it). */
  sessionId?: string;
  /** Agent (team) name, e.g. 'ideation'; also sent as the x-econagents-agent header. */
  agent: string;
  /** Phase key, e.g. 'generate'; also sent as the x-econagents-phase header. */
  phase: string;
  /** Aborts queued and in-flight calls (session cancelled); never retried. */
  signal?: AbortSignal;
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface PromptInput {
  system?: string;
  /** The user message. With `messages`, it is appended after them. */
  prompt?: string;
  /** Earlier turns (e.g. a phase's previous output and the user's feedback). */
  messages?: ChatMessage[];
}

export interface ObjectInput extends PromptInput {
  /** Name and description of the output, given to providers that take them. */
  schemaName?: string;
  schemaDescription?: string;
}

/** What one logical call cost; the same numbers are stored in llm_calls. */
export interface CallUsage {
  provider: string;
  model: string;
  keySource: 'user' | 'server';
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Estimated USD; null when the model's price is unknown. */
  costUsd: number | null;
  /** Wall time of the whole call: queueing, retries and repair included. */
  latencyMs: number;
  /** HTTP requests made (retries and the repair request included). */
  requests: number;
  /** The first structured reply was invalid and the repaired one was used. */
  repaired: boolean;
}

export interface TextResult {
  text: string;
  usage: CallUsage;
}

export interface ObjectResult<T> {
  object: T;
  usage: CallUsage;
}

/** The model as one phase of one session sees it. */
export interface ModelHandle {
  /** Free text. */
  generateText(input: PromptInput): Promise<TextResult>;
  /**
   * A value validated by `schema`: JSON-schema output where the provider supports it, else
   * prompted JSON; an invalid reply gets one repair request; still invalid -> ModelOutputError.
   */
  generateObject<T>(schema: z.ZodType<T>, input: ObjectInput): Promise<ObjectResult<T>>;
}

export interface ModelAvailability {
  configured: boolean;
  provider: string | null;
  model: string | null;
  /** Whose configuration a call would use. */
  source: 'user' | 'server' | null;
  /** When not configured: what is missing and how to fix it. */
  hint?: string;
}

export interface ModelLayer {
  forCall(ctx: ModelCallContext): ModelHandle;
  /** Which provider and model a user's calls would use, or why none can be used. */
  availability(userId: string): Promise<ModelAvailability>;
  /** Throws ModelNotConfiguredError (with LLM_SETUP_HINT) when the user cannot make calls. */
  ensureAvailable(userId: string): Promise<void>;
  /** Usage totals and records (llm_calls). */
  usage: Omit<UsageStore, 'record'>;
}

/** Minimal logger (pino / Fastify logger). Keys and prompts are never passed to it. */
export interface ModelLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ModelLayerDeps {
  config: Pick<Config, 'llm'>;
  loadUserLlmSettings: LoadUserLlmSettings;
  db: Database;
  log: ModelLogger;
  /** Overrides of the spec's retry constants (tests scale the waits down). */
  retry?: Partial<RetryPolicy>;
}

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

const AGENT_HEADER = 'x-econagents-agent';
const PHASE_HEADER = 'x-econagents-phase';
const MAX_PROVIDER_MESSAGE = 300;
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Everything one call needs, resolved from the user's settings at the start of the call. */
interface Resolved {
  target: ModelTarget;
  settings: UserLlmSettings;
  model: LanguageModel;
  limiter: LimitFunction;
}

/** Running totals of one logical call. */
interface Tally {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  repaired: boolean;
}

/** A failure worth another try, with the wait the provider asked for. */
interface Transient {
  kind: Extract<ModelCallErrorKind, 'rate_limited' | 'server_error' | 'timeout' | 'network'>;
  status?: number;
  retryAfterMs?: number;
  message: string;
}

type SendResult =
  | { ok: true; text: string; output: unknown; finishReason: FinishReason }
  | { ok: false; text: string; finishReason: FinishReason | undefined };

export function createModelLayer(deps: ModelLayerDeps): ModelLayer {
  const { config, loadUserLlmSettings, log } = deps;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...deps.retry };
  const prices: PriceTable = buildPriceTable(config.llm.prices);
  const store = createUsageStore(deps.db);
  const limiters = new Map<string, LimitFunction>();
  /** OpenAI-compatible servers (base URL + model) that refused a JSON schema: prompted JSON. */
  const noJsonSchema = new Set<string>();

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

      generateObject: <T>(schema: z.ZodType<T>, input: ObjectInput) =>
        run(ctx, 'object', (r, tally) => generateObjectIn(ctx, r, tally, schema, input)).then(
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
    const tally: Tally = { requests: 0, inputTokens: 0, outputTokens: 0, repaired: false };
    let value: V | undefined;
    let failure: unknown;
    try {
      value = await body(r, tally);
    } catch (error) {
      failure = error;
    }
    const usage = usageOf(r.target, tally, Math.round(performance.now() - started));
    if (tally.requests > 0) {
      await recordCall(ctx, kind, usage, failure);
    }
    if (failure !== undefined) throw failure;
    return { value: value as V, usage };
  }

  function usageOf(target: ModelTarget, tally: Tally, latencyMs: number): CallUsage {
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

  async function recordCall(
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
      await store.record({ userId: ctx.userId, ...fields });
    } catch (error) {
      // The call itself succeeded or failed on its own; losing its record must not change that.
      log.error({ err: error, ...fields }, 'could not record model call usage');
    }
    log.info(fields, failure === undefined ? 'model call' : 'model call failed');
  }

  async function generateObjectIn<T>(
    ctx: ModelCallContext,
    r: Resolved,
    tally: Tally,
    schema: z.ZodType<T>,
    input: ObjectInput,
  ): Promise<T> {
    const mode = structuredMode(r.target);
    const output =
      mode === 'json-schema'
        ? Output.object({ schema, name: input.schemaName, description: input.schemaDescription })
        : undefined;
    const system =
      mode === 'prompted'
        ? [input.system, promptedJsonInstructions(schema)].filter(Boolean).join('\n\n')
        : input.system;

    let first: SendResult;
    try {
      first = await send(ctx, r, tally, { ...input, system, output });
    } catch (error) {
      // 'auto' on an OpenAI-compatible server: a server that rejects response_format
      // json_schema gets prompted JSON from now on.
      if (mode === 'json-schema' && canFallBack(r.target) && isSchemaRejection(error)) {
        noJsonSchema.add(serverKey(r.target));
        log.warn(
          { provider: r.target.provider, model: r.target.model },
          'model server refused a JSON schema; using prompted JSON',
        );
        return generateObjectIn(ctx, r, tally, schema, input);
      }
      throw error;
    }
    const firstCheck = checkReply(schema, first);
    if (firstCheck.ok) return firstCheck.value;

    // One repair: the bad reply and what was wrong with it go back to the model.
    tally.repaired = true;
    const messages: ChatMessage[] = [
      ...(input.messages ?? []),
      ...(input.prompt !== undefined ? [{ role: 'user' as const, content: input.prompt }] : []),
      { role: 'assistant', content: first.text || '(empty reply)' },
      { role: 'user', content: repairInstructions(firstCheck.error) },
    ];
    const second = await send(ctx, r, tally, {
      system,
      messages,
      prompt: undefined,
      output,
    });
    const secondCheck = checkReply(schema, second);
    if (secondCheck.ok) return secondCheck.value;
    tally.repaired = false;
    throw new ModelOutputError(
      `The model (${modelName(r.target)}) did not return the expected structure, also after one ` +
        `repair attempt: ${secondCheck.error}` +
        (second.finishReason === 'length' ? lengthHint(r.settings) : ''),
      details(r.target, tally),
      second.text,
      secondCheck.error,
    );
  }

  function checkReply<T>(
    schema: z.ZodType<T>,
    res: SendResult,
  ): { ok: true; value: T } | { ok: false; error: string } {
    if (res.ok && res.output !== undefined) {
      // JSON-schema mode: the SDK has parsed and validated it already.
      return { ok: true, value: res.output as T };
    }
    return validateReply(schema, res.text);
  }

  function structuredMode(target: ModelTarget): 'json-schema' | 'prompted' {
    const setting = config.llm.structuredOutput;
    if (setting !== 'auto') return setting;
    return canFallBack(target) && noJsonSchema.has(serverKey(target)) ? 'prompted' : 'json-schema';
  }

  const canFallBack = (target: ModelTarget) =>
    config.llm.structuredOutput === 'auto' && target.provider === 'openai-compatible';
  const serverKey = (target: ModelTarget) => `${target.baseUrl ?? ''}|${target.model}`;

  /**
   * One request to the model with retries. Each attempt takes one of the user's concurrency
   * slots for its duration only (not while waiting to retry) and has its own timeout.
   */
  async function send(
    ctx: ModelCallContext,
    r: Resolved,
    tally: Tally,
    input: PromptInput & { output: ReturnType<typeof Output.object> | undefined },
  ): Promise<SendResult> {
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
        transient = classify(error, r, tally, timedOut, timeoutMs);
      }

      const waitMs = transient.retryAfterMs ?? backoffDelayMs(policy, retry);
      if (retry >= policy.maxRetries || waitMs > policy.maxRetryAfterMs) {
        throw finalError(transient, r, tally, retry, waitMs);
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
  }

  /** Transient failures come back to be retried; every other failure is thrown here. */
  function classify(
    error: unknown,
    r: Resolved,
    tally: Tally,
    timedOut: boolean,
    timeoutMs: number,
  ): Transient {
    const forbidden = findForbiddenAddress(error);
    if (forbidden && r.target.baseUrl) {
      throw refusalFor(parseUserBaseUrl(r.target.baseUrl).origin, forbidden);
    }
    if (timedOut) {
      return { kind: 'timeout', message: `no answer within ${formatSeconds(timeoutMs)}` };
    }
    const where = modelName(r.target);
    if (APICallError.isInstance(error)) {
      const status = error.statusCode;
      const providerMessage = scrub(providerMessageOf(error), r.target.apiKey);
      if (status === 429) {
        return {
          kind: 'rate_limited',
          status,
          retryAfterMs: parseRetryAfterMs(error.responseHeaders),
          message: providerMessage,
        };
      }
      if (status === 408) return { kind: 'timeout', status, message: providerMessage };
      if (status !== undefined && status >= 500) {
        return {
          kind: 'server_error',
          status,
          retryAfterMs: parseRetryAfterMs(error.responseHeaders),
          message: providerMessage,
        };
      }
      if (status === 401 || status === 403) {
        const fix =
          r.target.source === 'user'
            ? 'Check your API key under Settings > API Keys.'
            : 'An administrator needs to check the API key configured on the server.';
        throw new ModelCallError(
          'auth',
          `The model provider (${where}) refused the API key (HTTP ${status}): ${providerMessage}. ${fix}`,
          details(r.target, tally, status),
          { cause: error },
        );
      }
      if (status === 404) {
        throw new ModelCallError(
          'bad_request',
          `The model provider (${where}) does not know this model or endpoint (HTTP 404): ` +
            `${providerMessage}. Check the model under Settings > AI (or LLM_MODEL on the server).`,
          details(r.target, tally, status),
          { cause: error },
        );
      }
      if (status !== undefined) {
        throw new ModelCallError(
          'bad_request',
          `The model provider (${where}) rejected the request (HTTP ${status}): ${providerMessage}`,
          details(r.target, tally, status),
          { cause: error },
        );
      }
      // No status: the server could not be reached or the connection broke.
      const code = errorCode(error);
      if (code && TRANSIENT_NETWORK_CODES.has(code)) {
        return { kind: 'network', message: `connection failed (${code})` };
      }
      throw new ModelCallError(
        'network',
        `Could not reach the model server (${where}${originOf(r.target)}): ${providerMessage}`,
        details(r.target, tally),
        { cause: error },
      );
    }
    const message = scrub(error instanceof Error ? error.message : String(error), r.target.apiKey);
    throw new ModelCallError(
      'server_error',
      `The model server (${where}) sent a reply that could not be read: ${truncate(message)}`,
      details(r.target, tally),
      { cause: error },
    );
  }

  function finalError(
    t: Transient,
    r: Resolved,
    tally: Tally,
    retries: number,
    waitMs: number,
  ): ModelCallError {
    const where = modelName(r.target);
    const after =
      retries > 0 ? `, also after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
    const d = {
      ...details(r.target, tally, t.status),
      ...(t.retryAfterMs !== undefined
        ? { retryAfterSeconds: Math.ceil(t.retryAfterMs / 1000) }
        : {}),
    };
    switch (t.kind) {
      case 'rate_limited': {
        const longWait =
          waitMs > policy.maxRetryAfterMs
            ? ` The provider asked to wait ${formatSeconds(waitMs)}.`
            : '';
        return new ModelCallError(
          'rate_limited',
          `The model provider (${where}) is rate-limiting requests (HTTP 429)${after}.${longWait} ` +
            'Service temporarily unavailable due to high demand. Please try again in a few minutes.',
          d,
        );
      }
      case 'server_error':
        return new ModelCallError(
          'server_error',
          `The model provider (${where}) failed with HTTP ${t.status}${after}: ${t.message}. ` +
            'Please try again later.',
          d,
        );
      case 'timeout':
        return new ModelCallError(
          'timeout',
          `The model (${where}) did not answer within ${formatSeconds(
            r.settings.requestTimeoutSeconds * 1000,
          )}${after}. Try again later, or raise the request timeout under Settings > API Keys.`,
          d,
        );
      case 'network':
        return new ModelCallError(
          'network',
          `The connection to the model server (${where}${originOf(r.target)}) failed${after}: ` +
            `${t.message}.`,
          d,
        );
    }
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

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

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

function addUsage(tally: Tally, usage: LanguageModelUsage | undefined): void {
  tally.inputTokens += usage?.inputTokens ?? 0;
  tally.outputTokens += usage?.outputTokens ?? 0;
}

function details(target: ModelTarget, tally: Tally, status?: number): ModelCallError['details'] {
  return {
    provider: target.provider,
    model: target.model,
    requests: tally.requests,
    ...(status !== undefined ? { status } : {}),
  };
}

const modelName = (target: ModelTarget) => `${target.provider} ${target.model}`;

function originOf(target: ModelTarget): string {
  if (!target.baseUrl) return '';
  try {
    return ` at ${new URL(target.baseUrl).origin}`;
  } catch {
    return '';
  }
}

function lengthHint(settings: UserLlmSettings): string {
  return (
    ` The reply was cut off at the ${settings.maxTokens}-token limit; raise Max tokens under ` +
    'Settings > AI.'
  );
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

const truncate = (text: string) =>
  text.length > MAX_PROVIDER_MESSAGE ? `${text.slice(0, MAX_PROVIDER_MESSAGE)}…` : text;

/** Removes the key (and long key-like tokens) from provider messages before they go anywhere. */
function scrub(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('***');
  out = out.replace(/\b(sk|sk-ant|sk-proj)-[A-Za-z0-9_*-]{8,}/g, '***');
  return truncate(out);
}

/** The provider's own error message (OpenAI-style `{error:{message}}`), else the SDK's. */
function providerMessageOf(error: APICallError): string {
  const data = error.data as { error?: { message?: unknown } } | undefined;
  if (typeof data?.error?.message === 'string') return data.error.message;
  if (error.responseBody) {
    try {
      const body = JSON.parse(error.responseBody) as { error?: { message?: unknown } | string };
      if (typeof body.error === 'string') return body.error;
      if (typeof body.error?.message === 'string') return body.error.message;
    } catch {
      // not JSON: fall through
    }
  }
  const causeCode = errorCode(error);
  return causeCode ? `${error.message} (${causeCode})` : error.message;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A 400/422 to a JSON-schema request that names the feature: the server does not take
 * response_format json_schema (older LM Studio, llama.cpp builds, some proxies).
 */
function isSchemaRejection(error: unknown): boolean {
  return (
    error instanceof ModelCallError &&
    error.kind === 'bad_request' &&
    (error.details.status === 400 || error.details.status === 422) &&
    /response_format|json_schema|json schema|structured|guided/i.test(error.message)
  );
}
