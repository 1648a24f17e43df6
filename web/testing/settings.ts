import { SETTINGS_DEFAULTS, type Settings } from '../../common/settings';

/** A signed-in user's settings as GET /api/settings returns them: the defaults, no keys stored. */
export function sampleSettings(): Settings {
  return {
    profile: {
      displayName: 'Ada',
      email: 'ada@example.org',
      role: 'researcher',
      ...SETTINGS_DEFAULTS.profile,
    },
    apiKeys: {
      llmApiKey: { hasKey: false, masked: null },
      worldBankApiKey: { hasKey: false, masked: null },
      fredApiKey: { hasKey: false, masked: null },
      kaggleApiKey: { hasKey: false, masked: null },
      ...SETTINGS_DEFAULTS.apiKeys,
    },
    ai: { ...SETTINGS_DEFAULTS.ai },
    data: { ...SETTINGS_DEFAULTS.data },
    codeGeneration: { ...SETTINGS_DEFAULTS.codeGeneration, frameworks: [] },
    runtime: { ...SETTINGS_DEFAULTS.runtime },
    notifications: { ...SETTINGS_DEFAULTS.notifications },
    explorer: { recentQueries: [] },
    updatedAt: null,
  };
}
