import type { Database } from '../../db/connect';
import type { Secrets } from '../../platform/secrets';
import { DEFAULT_USER_LLM_SETTINGS, type LoadUserLlmSettings } from '../../agents/llm/types';

/** Placeholder until the settings module stores per-user settings. */
export function createUserLlmSettingsLoader(_db: Database, _secrets: Secrets): LoadUserLlmSettings {
  return async () => ({ ...DEFAULT_USER_LLM_SETTINGS });
}
