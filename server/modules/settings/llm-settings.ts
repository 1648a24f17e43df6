import type { ModelDraft } from '../../../common/settings';
import type { Database } from '../../db/connect';
import type { Secrets } from '../../platform/secrets';
import type { LoadUserLlmSettings, UserLlmSettings } from '../../platform/llm-settings';
import { openSealedKey } from './service';
import { createSettingsStore } from './store';
import { effectiveSections, readChoices } from './values';

/**
 * A user's model settings for the model layer, with their own key decrypted. The provider is
 * passed only when the user chose one, so "not chosen" falls back to the server's provider.
 * The key is never logged: nothing here logs, and callers must not log the result.
 */
export function createUserLlmSettingsLoader(db: Database, secrets: Secrets): LoadUserLlmSettings {
  const store = createSettingsStore(db);
  return async (userId: string): Promise<UserLlmSettings> => {
    const row = await store.find(userId);
    const choices = readChoices(row?.values);
    const s = effectiveSections(choices);
    const apiKey = openSealedKey(secrets.encryptionKey, row?.llmApiKeySealed ?? null);
    const baseUrl = s.apiKeys.llmBaseUrl.trim();
    const customModel = s.ai.customModel.trim();
    return {
      ...(choices.apiKeys?.llmProvider ? { provider: choices.apiKeys.llmProvider } : {}),
      ...(apiKey ? { apiKey } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      modelVersion: s.ai.modelVersion,
      ...(customModel ? { customModel } : {}),
      temperature: s.ai.temperature,
      maxTokens: s.ai.maxTokens,
      maxConcurrentRequests: s.apiKeys.maxConcurrentRequests,
      requestTimeoutSeconds: s.apiKeys.requestTimeout,
    };
  };
}

/**
 * Unsaved choices from the Settings form over the saved settings (for a status or a test; never
 * stored). '' removes a value: no base URL, no key of the user's own, no custom model id.
 */
export function applyModelDraft(saved: UserLlmSettings, draft: ModelDraft): UserLlmSettings {
  const next: UserLlmSettings = { ...saved };
  const set = <K extends 'baseUrl' | 'apiKey' | 'customModel'>(
    key: K,
    value: string | undefined,
  ) => {
    if (value === undefined) return;
    const trimmed = value.trim();
    if (trimmed) next[key] = trimmed;
    else delete next[key];
  };
  if (draft.llmProvider !== undefined) next.provider = draft.llmProvider;
  if (draft.modelVersion !== undefined) next.modelVersion = draft.modelVersion;
  set('baseUrl', draft.llmBaseUrl);
  set('apiKey', draft.llmApiKey);
  set('customModel', draft.customModel);
  return next;
}
