import { useMemo } from 'react';
import { modelDraftSchema, type ModelDraft, type Settings } from '../../../../common/settings';
import { useDebouncedValue } from '../project-manager/useDebouncedValue';
import { modelDraftOf, type SettingsForm } from './form';

/**
 * The form's unsaved model choices: `draft` as typed (for a test the user starts), `settled`
 * once typing has paused (for the status queries, so a URL being typed is not asked about per
 * keystroke), and `invalid` when a changed field would be refused.
 */
export function useModelDraft(
  form: SettingsForm,
  saved: Settings,
): { draft: ModelDraft | undefined; settled: ModelDraft | undefined; invalid: boolean } {
  const { draft, invalid } = modelDraftOf(form, saved);
  const settledKey = useDebouncedValue(JSON.stringify(draft ?? null), 400);
  const settled = useMemo(
    () => modelDraftSchema.nullable().parse(JSON.parse(settledKey)) ?? undefined,
    [settledKey],
  );
  return { draft, settled, invalid };
}
