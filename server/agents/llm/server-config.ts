import type { Config } from '../../config';
import { LLM_SETUP_HINT, ModelNotConfiguredError } from './errors';
import { resolveModelTarget } from './models';
import { DEFAULT_USER_LLM_SETTINGS, type LlmAvailability } from '../../platform/llm-settings';

export type { LlmAvailability };

export { LLM_SETUP_HINT };

/**
 * Whether the server itself has a usable model provider (a user's own key may add one), and
 * which model a user with the default AI settings gets from it.
 */
export function serverLlmAvailability(config: Config): LlmAvailability {
  try {
    // Without a key of the user's own, resolution uses the server's configuration only.
    const target = resolveModelTarget(config.llm, { ...DEFAULT_USER_LLM_SETTINGS });
    return { configured: true, provider: target.provider, model: target.model };
  } catch (error) {
    if (!(error instanceof ModelNotConfiguredError)) throw error;
    return {
      configured: false,
      provider: config.llm.provider ?? null,
      model: config.llm.model ?? null,
      hint: error.message,
    };
  }
}
