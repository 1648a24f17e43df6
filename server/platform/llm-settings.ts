import type { ConnectionTest, ModelStatus, ServerModels } from '../../common/settings';

/**
 * What the settings module and the model layer (server/agents/llm) agree on, in a file that
 * imports neither: the user's model settings the settings module loads and the model layer
 * applies, and the model checks Settings and the system status show, which the model layer
 * provides through AppContext (`ctx.modelStatus`).
 */

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
  /** The model chosen under Settings > AI: gpt-4, gpt-3.5-turbo, claude-3 or custom. */
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

/** Whether a model can be used, by whom it is provided, and if not, how to configure one. */
export interface LlmAvailability {
  configured: boolean;
  provider: string | null;
  model: string | null;
  /** Why it is not configured, and how to fix it. */
  hint?: string;
}

/** The agent and phase names a connection test's one call is sent and recorded under. */
export const CONNECTION_TEST_CALL = { agent: 'settings', phase: 'test-connection' } as const;

/**
 * The model checks of Settings and the system status, given the settings to check (the saved
 * ones, or unsaved choices laid over them): nothing here stores anything.
 */
export interface ModelStatusService {
  /** Which provider and model a session with these settings would use, and each choice's. */
  status(userId: string, settings: UserLlmSettings): Promise<ModelStatus>;
  /** One tiny call with these settings (recorded under CONNECTION_TEST_CALL). */
  test(userId: string, settings: UserLlmSettings): Promise<ConnectionTest>;
  /** The model ids an OpenAI-compatible server lists (only for that provider). */
  listModels(settings: UserLlmSettings): Promise<ServerModels>;
  /** Whether the server itself has a usable model (a user's own key may add one). */
  serverAvailability(): LlmAvailability;
}
