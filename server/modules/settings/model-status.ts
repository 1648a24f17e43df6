import { isHttpUrl, type ModelDraft } from '../../../common/settings';
import type { LoadUserLlmSettings, ModelStatusService } from '../../platform/llm-settings';
import { applyModelDraft } from './llm-settings';
import type { SettingsStore } from './store';

/**
 * Settings' model status, connection test and model list for one user: the saved model
 * settings, with a draft of unsaved choices laid over them when one is sent, checked by the
 * model layer (`ctx.modelStatus`). Nothing here stores anything.
 *
 * A saved base URL the current rules refuse (stored by an older version, such as "http://[")
 * is left out of the settings the model layer gets; the three answers say so, naming the
 * setting, instead of quietly using another server (or failing with a server error).
 */
export function createUserModelStatus(deps: {
  modelStatus: ModelStatusService;
  loadUserLlmSettings: LoadUserLlmSettings;
  store: Pick<SettingsStore, 'find'>;
}) {
  async function settingsOf(userId: string, draft: ModelDraft | undefined) {
    const saved = await deps.loadUserLlmSettings(userId);
    return draft ? applyModelDraft(saved, draft) : saved;
  }

  /** What is wrong with the saved base URL, unless the draft replaces it. */
  async function savedBaseUrlProblem(userId: string, draft: ModelDraft | undefined) {
    if (draft?.llmBaseUrl !== undefined) return undefined;
    const values = (await deps.store.find(userId))?.values;
    const apiKeys =
      typeof values === 'object' && values !== null && 'apiKeys' in values
        ? values.apiKeys
        : undefined;
    const raw =
      typeof apiKeys === 'object' && apiKeys !== null && 'llmBaseUrl' in apiKeys
        ? apiKeys.llmBaseUrl
        : undefined;
    if (typeof raw !== 'string' || raw.trim() === '' || isHttpUrl(raw.trim())) return undefined;
    return (
      `Your saved model base URL (llmBaseUrl) is not a valid URL: "${raw.trim().slice(0, 100)}". ` +
      'Enter it as http(s)://host[:port]/path under Settings > API Keys and save.'
    );
  }

  return {
    async status(userId: string, draft?: ModelDraft) {
      const status = await deps.modelStatus.status(userId, await settingsOf(userId, draft));
      const problem = await savedBaseUrlProblem(userId, draft);
      return problem ? { ...status, configured: false, hint: problem } : status;
    },
    async test(userId: string, draft?: ModelDraft) {
      const settings = await settingsOf(userId, draft);
      const problem = await savedBaseUrlProblem(userId, draft);
      if (problem) {
        return {
          ok: false as const,
          kind: 'not_configured' as const,
          provider: settings.provider ?? null,
          model: null,
          message: problem,
          latencyMs: null,
        };
      }
      return deps.modelStatus.test(userId, settings);
    },
    async listModels(userId: string, draft?: ModelDraft) {
      const problem = await savedBaseUrlProblem(userId, draft);
      if (problem) return { ok: false as const, message: problem };
      return deps.modelStatus.listModels(await settingsOf(userId, draft));
    },
  };
}
