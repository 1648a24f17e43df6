import {
  API_KEY_NAMES,
  SETTINGS_LIMITS as L,
  modelDraftSchema,
  type ApiKeyName,
  type ModelDraft,
  type Settings,
  type UpdateSettingsRequest,
} from '../../../../common/settings';

/**
 * The Settings screen's editable copy of the server's settings. Whole numbers typed into text
 * fields stay strings while editing (so a field can be emptied); API keys are never known here:
 * each has an edit that keeps, replaces or clears the stored key.
 */
export type KeyEdit = { mode: 'keep' } | { mode: 'replace'; value: string } | { mode: 'clear' };

export interface SettingsForm {
  profile: Pick<Settings['profile'], 'displayName' | 'theme' | 'notifications'>;
  keys: Record<ApiKeyName, KeyEdit>;
  apiKeys: {
    llmProvider: Settings['apiKeys']['llmProvider'];
    llmBaseUrl: string;
    kaggleUsername: string;
    maxConcurrentRequests: string;
    requestTimeout: string;
  };
  ai: Omit<Settings['ai'], 'maxTokens'> & { maxTokens: string };
  data: Settings['data'];
  codeGeneration: Settings['codeGeneration'];
  runtime: { codeExecutionTimeLimitSeconds: string };
  notifications: Settings['notifications'];
}

export function keepAllKeys(): Record<ApiKeyName, KeyEdit> {
  return Object.fromEntries(API_KEY_NAMES.map((k) => [k, { mode: 'keep' }])) as Record<
    ApiKeyName,
    KeyEdit
  >;
}

export function formFromSettings(s: Settings): SettingsForm {
  return {
    profile: {
      displayName: s.profile.displayName,
      theme: s.profile.theme,
      notifications: s.profile.notifications,
    },
    keys: keepAllKeys(),
    apiKeys: {
      llmProvider: s.apiKeys.llmProvider,
      llmBaseUrl: s.apiKeys.llmBaseUrl,
      kaggleUsername: s.apiKeys.kaggleUsername,
      maxConcurrentRequests: String(s.apiKeys.maxConcurrentRequests),
      requestTimeout: String(s.apiKeys.requestTimeout),
    },
    ai: { ...s.ai, maxTokens: String(s.ai.maxTokens) },
    data: { ...s.data },
    codeGeneration: { ...s.codeGeneration, frameworks: [...s.codeGeneration.frameworks] },
    runtime: { codeExecutionTimeLimitSeconds: String(s.runtime.codeExecutionTimeLimitSeconds) },
    notifications: { ...s.notifications },
  };
}

/** Field path -> message, for the fields the form checks before sending. */
export type FormErrors = Partial<Record<string, string>>;

function wholeNumberError(
  label: string,
  text: string,
  min: number,
  max: number,
): string | undefined {
  if (!/^\d+$/.test(text.trim())) return `${label} must be a whole number`;
  const n = Number(text);
  if (n < min || n > max) return `${label} must be between ${min} and ${max}`;
  return undefined;
}

export function validateForm(f: SettingsForm): FormErrors {
  const errors: FormErrors = {};
  const put = (key: string, message: string | undefined) => {
    if (message) errors[key] = message;
  };
  if (!f.profile.displayName.trim()) errors['profile.displayName'] = 'Display name is required';
  put(
    'apiKeys.maxConcurrentRequests',
    wholeNumberError(
      'Max concurrent requests',
      f.apiKeys.maxConcurrentRequests,
      L.maxConcurrentRequests.min,
      L.maxConcurrentRequests.max,
    ),
  );
  put(
    'apiKeys.requestTimeout',
    wholeNumberError(
      'Request timeout',
      f.apiKeys.requestTimeout,
      L.requestTimeout.min,
      L.requestTimeout.max,
    ),
  );
  const url = f.apiKeys.llmBaseUrl.trim();
  if (url && !/^https?:\/\/\S+$/i.test(url))
    errors['apiKeys.llmBaseUrl'] = 'Must be an http(s) URL';
  const kaggleUsername = f.apiKeys.kaggleUsername.trim();
  if (kaggleUsername.length > L.kaggleUsername.maxLength)
    errors['apiKeys.kaggleUsername'] = `At most ${L.kaggleUsername.maxLength} characters`;
  else if (!/^[A-Za-z0-9_.-]*$/.test(kaggleUsername))
    errors['apiKeys.kaggleUsername'] = 'Letters, digits, dots, dashes and underscores only';
  put(
    'ai.maxTokens',
    wholeNumberError('Max tokens', f.ai.maxTokens, L.maxTokens.min, L.maxTokens.max),
  );
  if (f.ai.modelVersion === 'custom' && !f.ai.customModel.trim())
    errors['ai.customModel'] = 'Enter the model id to use';
  put(
    'runtime.codeExecutionTimeLimitSeconds',
    wholeNumberError(
      'Time limit',
      f.runtime.codeExecutionTimeLimitSeconds,
      L.codeExecutionTimeLimitSeconds.min,
      L.codeExecutionTimeLimitSeconds.max,
    ),
  );
  for (const name of API_KEY_NAMES) {
    const edit = f.keys[name];
    if (edit.mode === 'replace') {
      if (!edit.value.trim()) errors[`keys.${name}`] = 'Enter the new key, or cancel';
      else if (/\s/.test(edit.value.trim())) errors[`keys.${name}`] = 'A key has no spaces';
    }
  }
  return errors;
}

/** The PUT body: every editable value; keys only when replaced ('' clears one). */
export function requestFromForm(f: SettingsForm): UpdateSettingsRequest {
  const keyChanges: Partial<Record<ApiKeyName, string>> = {};
  for (const name of API_KEY_NAMES) {
    const edit = f.keys[name];
    if (edit.mode === 'replace') keyChanges[name] = edit.value.trim();
    if (edit.mode === 'clear') keyChanges[name] = '';
  }
  return {
    profile: { ...f.profile, displayName: f.profile.displayName.trim() },
    apiKeys: {
      ...keyChanges,
      llmProvider: f.apiKeys.llmProvider,
      llmBaseUrl: f.apiKeys.llmBaseUrl.trim(),
      kaggleUsername: f.apiKeys.kaggleUsername.trim(),
      maxConcurrentRequests: Number(f.apiKeys.maxConcurrentRequests),
      requestTimeout: Number(f.apiKeys.requestTimeout),
    },
    ai: {
      ...f.ai,
      customModel: f.ai.customModel.trim(),
      // Sliders can produce 0.30000000000000004; the server wants multiples of 0.1.
      temperature: Math.round(f.ai.temperature * 10) / 10,
      maxTokens: Number(f.ai.maxTokens),
    },
    data: { ...f.data },
    codeGeneration: { ...f.codeGeneration },
    runtime: { codeExecutionTimeLimitSeconds: Number(f.runtime.codeExecutionTimeLimitSeconds) },
    notifications: { ...f.notifications },
  };
}

/** Which category holds an error's field (to point the user at it). */
export function sectionOfError(key: string): string {
  if (key === 'profile.displayName') return 'profile';
  if (key.startsWith('keys.') || key.startsWith('apiKeys.')) return 'api-keys';
  if (key.startsWith('ai.')) return 'ai';
  if (key.startsWith('runtime.')) return 'runtime';
  return 'profile';
}

/**
 * The form's model choices that differ from the saved settings, for the model status and the
 * connection test (undefined: nothing differs). `invalid` when a changed field would be refused.
 */
export function modelDraftOf(
  f: SettingsForm,
  saved: Settings,
): { draft: ModelDraft | undefined; invalid: boolean } {
  const draft: ModelDraft = {};
  if (f.apiKeys.llmProvider !== saved.apiKeys.llmProvider)
    draft.llmProvider = f.apiKeys.llmProvider;
  if (f.apiKeys.llmBaseUrl.trim() !== saved.apiKeys.llmBaseUrl)
    draft.llmBaseUrl = f.apiKeys.llmBaseUrl.trim();
  const key = f.keys.llmApiKey;
  if (key.mode === 'replace') draft.llmApiKey = key.value.trim();
  if (key.mode === 'clear') draft.llmApiKey = '';
  if (f.ai.modelVersion !== saved.ai.modelVersion) draft.modelVersion = f.ai.modelVersion;
  if (f.ai.customModel.trim() !== saved.ai.customModel) draft.customModel = f.ai.customModel.trim();
  if (Object.keys(draft).length === 0) return { draft: undefined, invalid: false };
  // A key being typed is not a key yet: until it is entered, test without it.
  if (key.mode === 'replace' && draft.llmApiKey === '') delete draft.llmApiKey;
  const ok = modelDraftSchema.safeParse(draft).success;
  return { draft: ok ? draft : undefined, invalid: !ok };
}
