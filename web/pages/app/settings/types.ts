import type { Settings } from '../../../../common/settings';
import type { FormErrors, SettingsForm } from './form';

/** What every Settings category component gets from the page. */
export interface SectionProps {
  form: SettingsForm;
  /** Replaces one group of the form. */
  update: <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => void;
  errors: FormErrors;
  settings: Settings;
}
