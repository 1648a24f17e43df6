export type LlmProvider = 'openai' | 'anthropic' | 'openai-compatible';

/**
 * A user's language-model settings as the model layer needs them (decrypted key included).
 * The settings module loads them (server/modules/settings/llm-settings.ts); the model layer
 * applies them. Fields left undefined fall back to the server configuration.
 */
export interface UserLlmSettings {
  /** The user's own provider choice; undefined means the server's LLM_PROVIDER. */
  provider?: LlmProvider;
  /** The user's own API key, decrypted. Never logged, never returned by the API. */
  apiKey?: string;
  /** Base URL for an OpenAI-compatible server (Ollama, vLLM, LM Studio). */
  baseUrl?: string;
  /** platform.md §3 AI settings: gpt-4, gpt-3.5-turbo, claude-3 or custom. */
  modelVersion: 'gpt-4' | 'gpt-3.5-turbo' | 'claude-3' | 'custom';
  /** Free-text model id when modelVersion is 'custom'. */
  customModel?: string;
  temperature: number;
  maxTokens: number;
  maxConcurrentRequests: number;
  requestTimeoutSeconds: number;
}

export const DEFAULT_USER_LLM_SETTINGS: UserLlmSettings = {
  modelVersion: 'gpt-4',
  temperature: 0.7,
  maxTokens: 2000,
  maxConcurrentRequests: 5,
  requestTimeoutSeconds: 30,
};

/** Loads a user's model settings; provided by the settings module. */
export type LoadUserLlmSettings = (userId: string) => Promise<UserLlmSettings>;
