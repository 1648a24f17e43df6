import { z } from 'zod';
import { displayNameSchema, userRoleSchema } from './auth';
import { DATASET_SOURCES } from './datasets';
import { recentQueriesInputSchema } from './recent-queries';

/**
 * Per-user settings with their limits (the sliders' ranges) and defaults, stored on the
 * server. Grouped by the Settings screen's categories. API keys are write-only: replies carry
 * `{hasKey, masked}`, never the key.
 *
 * Every setting here is read by the code its label names. The spec's agentAutonomy,
 * saveAgentHistory, enableContinuousLearning, cacheDatasets, maxCacheSize and dataAutoSave were
 * removed (no code could honour them; docs/product-rules.md): a PUT that sends one ignores it,
 * and stored values are dropped on read and by a migration.
 */

export const THEMES = ['light', 'dark', 'system'] as const;
export const MODEL_VERSIONS = ['gpt-4', 'gpt-3.5-turbo', 'claude-3', 'custom'] as const;
export const LLM_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];
export const LLM_PROVIDER_LABELS: Record<LlmProviderName, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server',
};
export const IMPUTATION_STRATEGIES = ['mean', 'median', 'mode', 'knn', 'none'] as const;
export const OUTLIER_DETECTION_METHODS = ['z-score', 'iqr', 'isolation-forest', 'none'] as const;
export const CODE_LANGUAGES = ['python', 'julia', 'r', 'dynare', 'matlab'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];
export const WORKFLOW_MODES = ['quick', 'comprehensive'] as const;

/** Inclusive ranges the server enforces (the screen uses them for sliders and inputs). */
export const SETTINGS_LIMITS = {
  maxConcurrentRequests: { min: 1, max: 20 },
  requestTimeout: { min: 5, max: 600 },
  temperature: { min: 0, max: 1, step: 0.1 },
  maxTokens: { min: 100, max: 32000 },
  codeExecutionTimeLimitSeconds: { min: 5, max: 600 },
  frameworks: { maxItems: 20, maxLength: 60 },
  apiKey: { maxLength: 500 },
  customModel: { maxLength: 200 },
  llmBaseUrl: { maxLength: 500 },
  kaggleUsername: { maxLength: 100 },
} as const;

export const SETTINGS_DEFAULTS = {
  profile: { theme: 'system', notifications: true },
  apiKeys: {
    llmProvider: 'openai',
    llmBaseUrl: '',
    /** Kaggle's API user name (kaggle.json `username`); the key is sealed like the others. */
    kaggleUsername: '',
    maxConcurrentRequests: 5,
    requestTimeout: 30,
  },
  ai: {
    modelVersion: 'gpt-4',
    customModel: '',
    temperature: 0.7,
    maxTokens: 2000,
  },
  data: {
    defaultDataSource: 'world_bank',
    autoCleanData: true,
    imputationStrategy: 'mean',
    outlierDetection: 'z-score',
  },
  codeGeneration: {
    defaultLanguage: 'python',
    frameworks: [] as string[],
    workflowMode: 'comprehensive',
  },
  runtime: { codeExecutionTimeLimitSeconds: 60 },
  notifications: {
    accountApproved: true,
    sessionWaiting: true,
    sessionCompleted: true,
    sessionFailed: true,
  },
  /** The Data Explorer's last searches, most recent first (common/recent-queries.ts). */
  explorer: { recentQueries: [] as string[] },
} as const;

/**
 * How a stored key is shown: whether there is one and a masked form (`••••••••abcd`: at most the
 * last 4 characters, none for keys under 12 characters).
 */
export const storedKeySchema = z.object({ hasKey: z.boolean(), masked: z.string().nullable() });
export type StoredKey = z.infer<typeof storedKeySchema>;

export const API_KEY_NAMES = [
  'llmApiKey',
  'worldBankApiKey',
  'fredApiKey',
  'kaggleApiKey',
] as const;
export type ApiKeyName = (typeof API_KEY_NAMES)[number];

/** GET/PUT /api/settings reply `data.settings`. */
export const settingsSchema = z.object({
  profile: z.object({
    displayName: z.string(),
    /** Read-only here (account e-mail and role). */
    email: z.string(),
    role: userRoleSchema,
    theme: z.enum(THEMES),
    /** Master switch for in-app notifications. */
    notifications: z.boolean(),
  }),
  apiKeys: z.object({
    llmApiKey: storedKeySchema,
    worldBankApiKey: storedKeySchema,
    fredApiKey: storedKeySchema,
    /** Kaggle's API key (kaggle.json `key`), used with kaggleUsername. */
    kaggleApiKey: storedKeySchema,
    kaggleUsername: z.string(),
    llmProvider: z.enum(LLM_PROVIDERS),
    /** For OpenAI-compatible servers (Ollama, vLLM, LM Studio); '' means the provider default. */
    llmBaseUrl: z.string(),
    maxConcurrentRequests: z.number(),
    /** Seconds. */
    requestTimeout: z.number(),
  }),
  ai: z.object({
    modelVersion: z.enum(MODEL_VERSIONS),
    /** Model id used when modelVersion is 'custom'. */
    customModel: z.string(),
    temperature: z.number(),
    maxTokens: z.number(),
  }),
  data: z.object({
    defaultDataSource: z.enum(DATASET_SOURCES),
    autoCleanData: z.boolean(),
    imputationStrategy: z.enum(IMPUTATION_STRATEGIES),
    outlierDetection: z.enum(OUTLIER_DETECTION_METHODS),
  }),
  codeGeneration: z.object({
    defaultLanguage: z.enum(CODE_LANGUAGES),
    frameworks: z.array(z.string()),
    workflowMode: z.enum(WORKFLOW_MODES),
  }),
  runtime: z.object({ codeExecutionTimeLimitSeconds: z.number() }),
  /** Which events create an in-app notification. */
  notifications: z.object({
    accountApproved: z.boolean(),
    sessionWaiting: z.boolean(),
    sessionCompleted: z.boolean(),
    sessionFailed: z.boolean(),
  }),
  explorer: z.object({ recentQueries: z.array(z.string()) }),
  updatedAt: z.string().nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

const int = (field: string, min: number, max: number) =>
  z
    .number({ message: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be between ${min} and ${max}`)
    .max(max, `${field} must be between ${min} and ${max}`);

const bool = (field: string) => z.boolean({ message: `${field} must be true or false` });
const choice = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { message: `${field} must be one of: ${values.join(', ')}` });

/** A key in a PUT: a string sets it, '' clears it, leaving it out keeps it. */
const apiKeyInput = (field: string) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(SETTINGS_LIMITS.apiKey.maxLength, `${field} is too long`)
    .refine((v) => !/\s/.test(v), { message: `${field} must not contain spaces` });

const L = SETTINGS_LIMITS;

/** PUT /api/settings: every section and every field optional; only what is sent changes. */
/**
 * An http(s) URL that also parses as one (WHATWG URL, as the server will read it): "http://["
 * looks like a URL by its scheme but cannot be used, and stored it broke every model call.
 */
export function isHttpUrl(v: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

export const updateSettingsRequestSchema = z.object({
  profile: z
    .object({
      displayName: displayNameSchema,
      theme: choice('theme', THEMES),
      notifications: bool('notifications'),
    })
    .partial()
    .optional(),
  apiKeys: z
    .object({
      llmApiKey: apiKeyInput('llmApiKey'),
      worldBankApiKey: apiKeyInput('worldBankApiKey'),
      fredApiKey: apiKeyInput('fredApiKey'),
      kaggleApiKey: apiKeyInput('kaggleApiKey'),
      kaggleUsername: z
        .string({ message: 'kaggleUsername must be text' })
        .trim()
        .max(L.kaggleUsername.maxLength, 'kaggleUsername is too long')
        .refine((v) => /^[A-Za-z0-9_.-]*$/.test(v), {
          message: 'kaggleUsername may hold only letters, digits, dots, dashes and underscores',
        }),
      llmProvider: choice('llmProvider', LLM_PROVIDERS),
      llmBaseUrl: z
        .string()
        .trim()
        .max(L.llmBaseUrl.maxLength, 'llmBaseUrl is too long')
        .refine((v) => v === '' || isHttpUrl(v), {
          message: 'llmBaseUrl must be an http(s) URL',
        }),
      maxConcurrentRequests: int(
        'maxConcurrentRequests',
        L.maxConcurrentRequests.min,
        L.maxConcurrentRequests.max,
      ),
      requestTimeout: int('requestTimeout', L.requestTimeout.min, L.requestTimeout.max),
    })
    .partial()
    .optional(),
  ai: z
    .object({
      modelVersion: choice('modelVersion', MODEL_VERSIONS),
      customModel: z
        .string()
        .trim()
        .max(
          L.customModel.maxLength,
          `customModel must be at most ${L.customModel.maxLength} characters`,
        ),
      temperature: z
        .number({ message: 'temperature must be a number' })
        .min(0, 'temperature must be between 0 and 1')
        .max(1, 'temperature must be between 0 and 1')
        .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, {
          message: 'temperature must be a multiple of 0.1',
        }),
      maxTokens: int('maxTokens', L.maxTokens.min, L.maxTokens.max),
    })
    .partial()
    .optional(),
  data: z
    .object({
      defaultDataSource: choice('defaultDataSource', DATASET_SOURCES),
      autoCleanData: bool('autoCleanData'),
      imputationStrategy: choice('imputationStrategy', IMPUTATION_STRATEGIES),
      outlierDetection: choice('outlierDetection', OUTLIER_DETECTION_METHODS),
    })
    .partial()
    .optional(),
  codeGeneration: z
    .object({
      defaultLanguage: choice('defaultLanguage', CODE_LANGUAGES),
      frameworks: z
        .array(
          z
            .string()
            .trim()
            .min(1, 'frameworks entries must not be empty')
            .max(
              L.frameworks.maxLength,
              `frameworks entries must be at most ${L.frameworks.maxLength} characters`,
            ),
        )
        .max(L.frameworks.maxItems, `frameworks may hold at most ${L.frameworks.maxItems} items`),
      workflowMode: choice('workflowMode', WORKFLOW_MODES),
    })
    .partial()
    .optional(),
  runtime: z
    .object({
      codeExecutionTimeLimitSeconds: int(
        'codeExecutionTimeLimitSeconds',
        L.codeExecutionTimeLimitSeconds.min,
        L.codeExecutionTimeLimitSeconds.max,
      ),
    })
    .partial()
    .optional(),
  notifications: z
    .object({
      accountApproved: bool('accountApproved'),
      sessionWaiting: bool('sessionWaiting'),
      sessionCompleted: bool('sessionCompleted'),
      sessionFailed: bool('sessionFailed'),
    })
    .partial()
    .optional(),
  explorer: z.object({ recentQueries: recentQueriesInputSchema }).partial().optional(),
});
export type UpdateSettingsRequest = z.input<typeof updateSettingsRequestSchema>;

export const settingsReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({ settings: settingsSchema }),
});
export type SettingsReply = z.infer<typeof settingsReplySchema>;

// ---------------------------------------------------------------------------------------------
// Model status: which model a session of this user would use, and a connection test
// ---------------------------------------------------------------------------------------------

const apiKeyFields = updateSettingsRequestSchema.shape.apiKeys.unwrap().shape;
const aiFields = updateSettingsRequestSchema.shape.ai.unwrap().shape;

/**
 * Unsaved model choices from the Settings form, applied over the saved settings for a status or
 * a test (nothing is stored). Only what differs from the saved settings is sent; `llmApiKey` is a
 * newly typed key, or '' for "without a key of my own".
 */
export const modelDraftSchema = z.object({
  llmProvider: apiKeyFields.llmProvider,
  llmBaseUrl: apiKeyFields.llmBaseUrl,
  llmApiKey: apiKeyFields.llmApiKey,
  modelVersion: aiFields.modelVersion,
  customModel: aiFields.customModel,
});
export type ModelDraft = z.input<typeof modelDraftSchema>;

export const MODEL_SOURCES = ['user', 'server'] as const;

/** Which provider and exact model id a session of this user would use, or why none can. */
export const modelStatusSchema = z.object({
  configured: z.boolean(),
  provider: z.enum(LLM_PROVIDERS).nullable(),
  /** The exact model id sent to the provider. */
  model: z.string().nullable(),
  /** Whose configuration: the user's own key or server, or the server's. */
  source: z.enum(MODEL_SOURCES).nullable(),
  /** When not configured: what is missing and how to fix it. */
  hint: z.string().optional(),
  /**
   * The model each choice of the picker runs with these settings (the spec's names are tiers,
   * mapped to current models); null when it cannot run (custom without an id, nothing configured).
   */
  choices: z.array(
    z.object({
      value: z.enum(MODEL_VERSIONS),
      provider: z.enum(LLM_PROVIDERS).nullable(),
      model: z.string().nullable(),
    }),
  ),
  /** The provider is an OpenAI-compatible server, whose /models list can be read. */
  canListModels: z.boolean(),
});
export type ModelStatus = z.infer<typeof modelStatusSchema>;

export const modelStatusReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ status: modelStatusSchema }),
});
export type ModelStatusReply = z.infer<typeof modelStatusReplySchema>;

export const CONNECTION_FAILURE_KINDS = [
  'not_configured',
  'auth',
  'rate_limited',
  'server_error',
  'timeout',
  'bad_request',
  'network',
] as const;

/** The outcome of one tiny model call made with the user's settings. */
export const connectionTestSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    provider: z.enum(LLM_PROVIDERS),
    model: z.string(),
    source: z.enum(MODEL_SOURCES),
    /** Wall time of the call, in milliseconds. */
    latencyMs: z.number(),
  }),
  z.object({
    ok: z.literal(false),
    kind: z.enum(CONNECTION_FAILURE_KINDS),
    provider: z.enum(LLM_PROVIDERS).nullable(),
    model: z.string().nullable(),
    /** The provider's HTTP status, when it answered. */
    status: z.number().optional(),
    /** What went wrong, with the provider's own error text, and how to fix it. */
    message: z.string(),
    latencyMs: z.number().nullable(),
  }),
]);
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

export const connectionTestReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ result: connectionTestSchema }),
});
export type ConnectionTestReply = z.infer<typeof connectionTestReplySchema>;

/** The model ids an OpenAI-compatible server lists at GET {baseUrl}/models. */
export const serverModelsSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), models: z.array(z.string()) }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type ServerModels = z.infer<typeof serverModelsSchema>;

export const serverModelsReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ result: serverModelsSchema }),
});
export type ServerModelsReply = z.infer<typeof serverModelsReplySchema>;

/** The Settings screen's confirmation, word for word, also the PUT reply's message. */
export const SETTINGS_SAVED_MESSAGE = 'Settings have been saved successfully!';

/**
 * Routes (`user` access):
 * GET /api/settings   -> settingsReplySchema (defaults when nothing was saved)
 * PUT /api/settings   updateSettingsRequestSchema -> settingsReplySchema (message SETTINGS_SAVED_MESSAGE)
 * GET  /api/settings/model-status     -> modelStatusReplySchema (saved settings)
 * POST /api/settings/model-status     modelDraftSchema -> modelStatusReplySchema (draft applied)
 * POST /api/settings/test-connection  modelDraftSchema -> connectionTestReplySchema (one tiny call)
 * POST /api/settings/models           modelDraftSchema -> serverModelsReplySchema (OpenAI-compatible)
 * Security category: POST /api/auth/change-password, POST /api/auth/sessions/revoke-others (auth module).
 */
