import { z } from 'zod';
import {
  LLM_PROVIDERS,
  MODEL_VERSIONS,
  type ConnectionTest,
  type ModelStatus,
  type ServerModels,
} from '../../../common/settings';
import type { Config } from '../../config';
import type { Database } from '../../db/connect';
import {
  CONNECTION_TEST_CALL,
  type LlmProvider,
  type ModelStatusService,
  type UserLlmSettings,
} from '../../platform/llm-settings';
import { checkUserBaseUrl, guardedFetch } from './base-url-guard';
import { ModelCallError, ModelNotConfiguredError } from './errors';
import { createModelLayer, type ModelLogger } from './model-layer';
import { resolveModelTarget, type ModelTarget } from './models';
import { serverLlmAvailability } from './server-config';

const TEST_MAX_TOKENS = 16;
const TEST_TIMEOUT_SECONDS = 30;
const MODELS_TIMEOUT_MS = 10_000;
const MODELS_MAX_BYTES = 1024 * 1024;
const MODELS_MAX_COUNT = 500;

const modelListSchema = z.object({
  data: z.array(z.object({ id: z.string().min(1).max(300) }).loose()),
});

/**
 * The model status of Settings and the team screens: which provider and model a session would
 * use (through the model layer's own resolution, so the answer is what a session really gets),
 * a one-call connection test, and an OpenAI-compatible server's model list. The settings
 * module passes the settings to check (unsaved choices laid over the saved ones); nothing here
 * stores anything. The rest of the server reaches it as `ctx.modelStatus`.
 */
export function createModelStatusService(deps: {
  config: Config;
  db: Database;
  log: ModelLogger;
}): ModelStatusService {
  const { config } = deps;

  /** A model layer that sees exactly these settings and does not retry (a test fails at once). */
  function layerFor(settings: UserLlmSettings) {
    return createModelLayer({
      config,
      db: deps.db,
      log: deps.log,
      loadUserLlmSettings: async () => settings,
      retry: { maxRetries: 0 },
    });
  }

  function tryTarget(settings: UserLlmSettings): ModelTarget | undefined {
    try {
      return resolveModelTarget(config.llm, settings);
    } catch (error) {
      if (error instanceof ModelNotConfiguredError) return undefined;
      throw error;
    }
  }

  /** Where an OpenAI-compatible server's model list is read, whatever model is chosen. */
  function compatibleServer(settings: UserLlmSettings): ModelTarget | undefined {
    const target = tryTarget({
      ...settings,
      modelVersion: 'custom',
      customModel: settings.customModel?.trim() || 'any',
    });
    return target?.provider === 'openai-compatible' ? target : undefined;
  }

  async function status(userId: string, settings: UserLlmSettings): Promise<ModelStatus> {
    const now = await layerFor(settings).availability(userId);
    const choices = MODEL_VERSIONS.map((value) => {
      const target = tryTarget({ ...settings, modelVersion: value });
      return { value, provider: target?.provider ?? null, model: target?.model ?? null };
    });
    return {
      configured: now.configured,
      provider: providerOf(now.provider),
      model: now.model,
      source: now.source,
      ...(now.hint ? { hint: now.hint } : {}),
      choices,
      canListModels: compatibleServer(settings) !== undefined,
    };
  }

  async function test(userId: string, saved: UserLlmSettings): Promise<ConnectionTest> {
    // One tiny call: a short answer, and no longer than a person waits for a button.
    const settings: UserLlmSettings = {
      ...saved,
      maxTokens: TEST_MAX_TOKENS,
      requestTimeoutSeconds: Math.min(saved.requestTimeoutSeconds, TEST_TIMEOUT_SECONDS),
    };
    const layer = layerFor(settings);
    const target = tryTarget(settings);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const { usage } = await layer.forCall({ userId, ...CONNECTION_TEST_CALL }).generateText({
        system: 'This is a connection test. Answer with the single word OK.',
        prompt: 'Connection test',
      });
      const provider = providerOf(usage.provider);
      if (!provider) throw new Error(`unknown provider ${usage.provider}`);
      return {
        ok: true,
        provider,
        model: usage.model,
        source: usage.keySource,
        latencyMs: usage.latencyMs,
      };
    } catch (error) {
      if (error instanceof ModelNotConfiguredError) {
        return {
          ok: false,
          kind: 'not_configured',
          provider: target?.provider ?? null,
          model: target?.model ?? null,
          message: error.message,
          latencyMs: null,
        };
      }
      if (error instanceof ModelCallError) {
        // A reply with no text (cut off at the tiny token limit) still proves the connection.
        if (error.kind === 'empty_output' && target) {
          return {
            ok: true,
            provider: target.provider,
            model: target.model,
            source: target.source,
            latencyMs: elapsed(),
          };
        }
        return {
          ok: false,
          kind:
            error.kind === 'invalid_output' || error.kind === 'empty_output'
              ? 'bad_request'
              : error.kind,
          provider: target?.provider ?? null,
          model: error.details.model,
          ...(error.details.status !== undefined ? { status: error.details.status } : {}),
          message: error.message,
          latencyMs: elapsed(),
        };
      }
      throw error;
    }
  }

  async function listModels(settings: UserLlmSettings): Promise<ServerModels> {
    const server = compatibleServer(settings);
    if (!server?.baseUrl) {
      return {
        ok: false,
        message:
          'Only an OpenAI-compatible server lists its models here. Choose that provider and enter ' +
          "the server's base URL under Settings > API Keys.",
      };
    }
    const url = `${server.baseUrl.replace(/\/+$/, '')}/models`;
    const origin = new URL(url).origin;
    let fetchFn: typeof globalThis.fetch = globalThis.fetch;
    try {
      if (server.untrustedBaseUrl && !config.llm.allowPrivateBaseUrls) {
        await checkUserBaseUrl(server.baseUrl);
        fetchFn = guardedFetch;
      }
      const res = await fetchFn(url, {
        headers: server.apiKey ? { authorization: `Bearer ${server.apiKey}` } : {},
        signal: AbortSignal.timeout(MODELS_TIMEOUT_MS),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return {
          ok: false,
          message: `The model server at ${origin} answered HTTP ${res.status} for /models.`,
        };
      }
      const text = await readCapped(res, MODELS_MAX_BYTES);
      const parsed = modelListSchema.safeParse(JSON.parse(text));
      if (!parsed.success) {
        return {
          ok: false,
          message: `The model server at ${origin} sent a model list in an unknown format.`,
        };
      }
      const ids = [...new Set(parsed.data.data.map((m) => m.id))].sort().slice(0, MODELS_MAX_COUNT);
      return { ok: true, models: ids };
    } catch (error) {
      if (error instanceof ModelNotConfiguredError) return { ok: false, message: error.message };
      const why = error instanceof Error ? error.message : String(error);
      return { ok: false, message: `Could not read the model list from ${origin}: ${why}` };
    }
  }

  return { status, test, listModels, serverAvailability: () => serverLlmAvailability(config) };
}

function providerOf(name: string | null): LlmProvider | null {
  return LLM_PROVIDERS.find((p) => p === name) ?? null;
}

/** The body as text, refusing more than `max` bytes (a hostile server could send gigabytes). */
async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`the list is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
