import type { Config } from '../../config';
import { LLM_SETUP_HINT, ModelNotConfiguredError } from './errors';
import type { LlmProvider, UserLlmSettings } from '../../platform/llm-settings';

/**
 * Which model a call goes to: the provider, model id, key and base URL, from the user's own
 * settings when they are usable, else from the server configuration.
 *
 * The model choices of Settings > AI (gpt-4, gpt-3.5-turbo, claude-3, custom) name retired
 * models, so each is read as a tier and mapped to a current model id of the provider
 * that will run it:
 *
 * | choice        | openai         | anthropic          | openai-compatible          |
 * |---------------|----------------|--------------------|----------------------------|
 * | gpt-4         | gpt-4.1        | claude-sonnet-4-5  | LLM_MODEL / custom model   |
 * | gpt-3.5-turbo | gpt-4.1-mini   | claude-haiku-4-5   | LLM_MODEL / custom model   |
 * | claude-3      | gpt-4.1        | claude-sonnet-4-5  | LLM_MODEL / custom model   |
 * | custom        | the user's free-text model id, on whichever provider runs the call |
 *
 * On the server's provider, LLM_MODEL (when set) replaces the mapped presets; only an explicit
 * custom model id chosen by the user wins over it. A user's own key never uses LLM_MODEL.
 */
export const MODEL_PRESETS: Record<
  'openai' | 'anthropic',
  Record<Exclude<UserLlmSettings['modelVersion'], 'custom'>, string>
> = {
  openai: { 'gpt-4': 'gpt-4.1', 'gpt-3.5-turbo': 'gpt-4.1-mini', 'claude-3': 'gpt-4.1' },
  anthropic: {
    'gpt-4': 'claude-sonnet-4-5',
    'gpt-3.5-turbo': 'claude-haiku-4-5',
    'claude-3': 'claude-sonnet-4-5',
  },
};

export interface ModelTarget {
  provider: LlmProvider;
  model: string;
  /** Never logged; undefined for key-less OpenAI-compatible servers. */
  apiKey: string | undefined;
  /** undefined = the provider's public endpoint. */
  baseUrl: string | undefined;
  /** Whose configuration is used: the user's own key/server, or the server's. */
  source: 'user' | 'server';
  /** The base URL came from a user: it is hostile and goes through the SSRF guard. */
  untrustedBaseUrl: boolean;
}

const notConfigured = (what: string, missing: string[]) =>
  new ModelNotConfiguredError(`${what} ${LLM_SETUP_HINT}`, missing);

/** The server's provider: LLM_PROVIDER, or inferred from the one provider whose settings are set. */
function serverProvider(llm: Config['llm']): LlmProvider | undefined {
  if (llm.provider) return llm.provider;
  if (llm.openaiCompatibleBaseUrl) return 'openai-compatible';
  if (llm.openaiApiKey) return 'openai';
  if (llm.anthropicApiKey) return 'anthropic';
  return undefined;
}

function customModelOf(user: UserLlmSettings): string | undefined {
  if (user.modelVersion !== 'custom') return undefined;
  const id = user.customModel?.trim();
  if (!id) {
    throw new ModelNotConfiguredError(
      'Your AI settings select a custom model but no model id is set. Enter the model id under ' +
        'Settings > AI, or choose one of the listed models.',
      ['customModel'],
    );
  }
  return id;
}

/** Does the user bring their own provider (a key, or a key-less OpenAI-compatible server)? */
function userProvider(user: UserLlmSettings): LlmProvider | undefined {
  const hasKey = !!user.apiKey?.trim();
  const hasBaseUrl = !!user.baseUrl?.trim();
  if (user.provider === 'openai-compatible')
    return hasKey || hasBaseUrl ? user.provider : undefined;
  if (!hasKey) return undefined;
  return user.provider ?? (user.modelVersion === 'claude-3' ? 'anthropic' : 'openai');
}

function resolveUserTarget(
  llm: Config['llm'],
  user: UserLlmSettings,
  provider: LlmProvider,
): ModelTarget {
  const apiKey = user.apiKey?.trim() || undefined;
  const userBaseUrl = user.baseUrl?.trim() || undefined;
  const custom = customModelOf(user);
  if (provider === 'openai-compatible') {
    if (!userBaseUrl) {
      throw new ModelNotConfiguredError(
        'Your API key is set for an OpenAI-compatible server, but no base URL is set. Enter the ' +
          "server's base URL (for example https://llm.example.org/v1) under Settings > API Keys.",
        ['llmBaseUrl'],
      );
    }
    if (!custom) {
      throw new ModelNotConfiguredError(
        'An OpenAI-compatible server needs the model id it serves. Choose "custom" under ' +
          'Settings > AI and enter the model id (for example llama3.1).',
        ['customModel'],
      );
    }
    return {
      provider,
      model: custom,
      apiKey,
      baseUrl: userBaseUrl,
      source: 'user',
      untrustedBaseUrl: true,
    };
  }
  const model = custom ?? MODEL_PRESETS[provider][presetOf(user)];
  // Without a base URL of their own, the user's key goes where this server reaches the provider.
  const serverBaseUrl = provider === 'openai' ? llm.openaiBaseUrl : llm.anthropicBaseUrl;
  return {
    provider,
    model,
    apiKey,
    baseUrl: userBaseUrl ?? serverBaseUrl,
    source: 'user',
    untrustedBaseUrl: userBaseUrl !== undefined,
  };
}

function presetOf(user: UserLlmSettings): Exclude<UserLlmSettings['modelVersion'], 'custom'> {
  return user.modelVersion === 'custom' ? 'gpt-4' : user.modelVersion;
}

function resolveServerTarget(llm: Config['llm'], user: UserLlmSettings): ModelTarget {
  const provider = serverProvider(llm);
  if (!provider) throw new ModelNotConfiguredError(LLM_SETUP_HINT, ['LLM_PROVIDER']);
  const custom = customModelOf(user);
  const server = { source: 'server' as const, untrustedBaseUrl: false };
  switch (provider) {
    case 'openai':
      if (!llm.openaiApiKey)
        throw notConfigured('LLM_PROVIDER is openai but OPENAI_API_KEY is not set.', [
          'OPENAI_API_KEY',
        ]);
      return {
        ...server,
        provider,
        model: custom ?? llm.model ?? MODEL_PRESETS.openai[presetOf(user)],
        apiKey: llm.openaiApiKey,
        baseUrl: llm.openaiBaseUrl,
      };
    case 'anthropic':
      if (!llm.anthropicApiKey)
        throw notConfigured('LLM_PROVIDER is anthropic but ANTHROPIC_API_KEY is not set.', [
          'ANTHROPIC_API_KEY',
        ]);
      return {
        ...server,
        provider,
        model: custom ?? llm.model ?? MODEL_PRESETS.anthropic[presetOf(user)],
        apiKey: llm.anthropicApiKey,
        baseUrl: llm.anthropicBaseUrl,
      };
    case 'openai-compatible': {
      if (!llm.openaiCompatibleBaseUrl)
        throw notConfigured(
          'LLM_PROVIDER is openai-compatible but OPENAI_COMPATIBLE_BASE_URL is not set.',
          ['OPENAI_COMPATIBLE_BASE_URL'],
        );
      const model = custom ?? llm.model;
      if (!model)
        throw notConfigured(
          'LLM_PROVIDER is openai-compatible but LLM_MODEL (the model id the server serves, ' +
            'for example llama3.1) is not set.',
          ['LLM_MODEL'],
        );
      return {
        ...server,
        provider,
        model,
        apiKey: llm.openaiCompatibleApiKey,
        baseUrl: llm.openaiCompatibleBaseUrl,
      };
    }
  }
}

/**
 * The user's own provider when usable, else the server's. Throws ModelNotConfiguredError
 * naming what is missing. A user's base URL is checked later, by the SSRF guard.
 */
export function resolveModelTarget(llm: Config['llm'], user: UserLlmSettings): ModelTarget {
  const own = userProvider(user);
  return own ? resolveUserTarget(llm, user, own) : resolveServerTarget(llm, user);
}
