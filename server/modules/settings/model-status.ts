import type { ModelDraft } from '../../../common/settings';
import type { LoadUserLlmSettings, ModelStatusService } from '../../platform/llm-settings';
import { applyModelDraft } from './llm-settings';

/**
 * Settings' model status, connection test and model list for one user: the saved model
 * settings, with a draft of unsaved choices laid over them when one is sent, checked by the
 * model layer (`ctx.modelStatus`). Nothing here stores anything.
 */
export function createUserModelStatus(deps: {
  modelStatus: ModelStatusService;
  loadUserLlmSettings: LoadUserLlmSettings;
}) {
  async function settingsOf(userId: string, draft: ModelDraft | undefined) {
    const saved = await deps.loadUserLlmSettings(userId);
    return draft ? applyModelDraft(saved, draft) : saved;
  }

  return {
    async status(userId: string, draft?: ModelDraft) {
      return deps.modelStatus.status(userId, await settingsOf(userId, draft));
    },
    async test(userId: string, draft?: ModelDraft) {
      return deps.modelStatus.test(userId, await settingsOf(userId, draft));
    },
    async listModels(userId: string, draft?: ModelDraft) {
      return deps.modelStatus.listModels(await settingsOf(userId, draft));
    },
  };
}
