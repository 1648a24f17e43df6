import type { Config } from '../../config';

export interface LlmAvailability {
  configured: boolean;
  provider: string | null;
  model: string | null;
  /** Why it is not configured, and how to fix it. */
  hint?: string;
}

export const LLM_SETUP_HINT =
  'No language model is configured. An administrator can set LLM_PROVIDER (openai, anthropic or openai-compatible) ' +
  'with LLM_MODEL and OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_COMPATIBLE_BASE_URL on the server, or you can add ' +
  'your own API key under Settings > API Keys.';

/** Whether the server itself has a usable model provider (a user's own key may add one). */
export function serverLlmAvailability(config: Config): LlmAvailability {
  const { provider, model } = config.llm;
  const ready =
    (provider === 'openai' && !!config.llm.openaiApiKey) ||
    (provider === 'anthropic' && !!config.llm.anthropicApiKey) ||
    (provider === 'openai-compatible' && !!config.llm.openaiCompatibleBaseUrl);
  return ready
    ? { configured: true, provider: provider ?? null, model: model ?? null }
    : { configured: false, provider: provider ?? null, model: model ?? null, hint: LLM_SETUP_HINT };
}
