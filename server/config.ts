import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_VERSION_PREFIX } from '../common/constants';

/**
 * Every environment variable the server reads, parsed once. README.md documents each of them;
 * keep the two in step.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const envSchema = z.object({
  NODE_ENV: z.string().default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  PUBLIC_URL: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  VERSION_PREFIX: z.string().default(DEFAULT_VERSION_PREFIX),
  TRUST_PROXY: bool.default(false),

  ADMIN_EMAIL: optionalString,
  ADMIN_PASSWORD: optionalString,

  JWT_SECRET: optionalString,
  ENCRYPTION_KEY: optionalString,
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  DOWNLOAD_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),

  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('EconAgents <no-reply@econagents.local>'),

  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  UPLOAD_LIMIT_BYTES: z.coerce.number().int().min(1024).default(52_428_800),
  /** Bytes of documents and datasets one user may store; 0 = no limit. */
  STORAGE_QUOTA_BYTES: z.coerce.number().int().min(0).default(536_870_912),
  /** PDF text extraction (a child process under an address-space limit): its limits. */
  PDF_MEMORY_LIMIT_MB: z.coerce.number().int().min(64).max(16_384).default(512),
  PDF_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  PDF_MAX_PAGES: z.coerce.number().int().min(1).default(2000),
  PDF_MAX_INFLATED_MB: z.coerce.number().int().min(1).default(256),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),

  LLM_PROVIDER: z.enum(['openai', 'anthropic', 'openai-compatible']).optional(),
  LLM_MODEL: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalString,
  OPENAI_COMPATIBLE_BASE_URL: optionalString,
  OPENAI_COMPATIBLE_API_KEY: optionalString,
  /** Let users point their own base URL at loopback/private addresses (trusted networks only). */
  LLM_ALLOW_PRIVATE_BASE_URLS: bool.default(false),
  /** auto | json-schema | prompted: how structured output is asked of the model. */
  LLM_STRUCTURED_OUTPUT: z.enum(['auto', 'json-schema', 'prompted']).default('auto'),
  /** JSON object: model id -> { input, output } US dollars per million tokens. */
  LLM_PRICES_JSON: optionalString,

  EMBEDDED_WORKER: bool.optional(),

  /** The Prometheus endpoint GET /api/metrics; with METRICS_TOKEN it takes that bearer token. */
  METRICS_ENABLED: bool.default(false),
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, {
    message: 'METRICS_TOKEN must be at least 16 characters',
  }),

  /** Agent runtime limits (server/agents). */
  AGENT_MAX_CONCURRENT_SESSIONS: z.coerce.number().int().min(1).default(5),
  AGENT_SESSION_TOKEN_BUDGET: z.coerce.number().int().min(0).default(500_000),
  AGENT_PHASE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(600),
  AGENT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  AGENT_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  WS_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).default(30),
  WS_MAX_BUFFERED_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  WEB_DIST_DIR: z.string().default('./dist/web'),
});

export type Env = z.input<typeof envSchema>;

/** The environment a configuration was read from (team and source fragments parse it too). */
export type RawEnv = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {}

const pricesSchema = z.record(
  z.string().min(1),
  z.object({ input: z.number().min(0), output: z.number().min(0) }).strict(),
);

/** LLM_PRICES_JSON: {"model-id": {"input": 2, "output": 8}} in US dollars per million tokens. */
function parsePrices(
  raw: string | undefined,
): Record<string, { input: number; output: number }> | undefined {
  if (raw === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError('Invalid configuration:\n  LLM_PRICES_JSON: not valid JSON');
  }
  const parsed = pricesSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      'Invalid configuration:\n  LLM_PRICES_JSON: expected {"model-id": {"input": <USD per million ' +
        'input tokens>, "output": <USD per million output tokens>}}',
    );
  }
  return parsed.data;
}

/** The environment's variables turned into the shape the server uses. */
function shape(e: z.output<typeof envSchema>, raw: RawEnv) {
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    logLevel: e.LOG_LEVEL,
    versionPrefix: e.VERSION_PREFIX,
    trustProxy: e.TRUST_PROXY,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD },
    auth: {
      jwtSecret: e.JWT_SECRET,
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
      downloadTokenTtlSeconds: e.DOWNLOAD_TOKEN_TTL_SECONDS,
    },
    encryptionKey: e.ENCRYPTION_KEY,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    limits: {
      bodyBytes: e.BODY_LIMIT_BYTES,
      uploadBytes: e.UPLOAD_LIMIT_BYTES,
      storageQuotaBytes: e.STORAGE_QUOTA_BYTES,
      rateLimitMax: e.RATE_LIMIT_MAX,
      rateLimitWindowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    },
    pdf: {
      memoryMb: e.PDF_MEMORY_LIMIT_MB,
      timeoutMs: e.PDF_TIMEOUT_SECONDS * 1000,
      maxPages: e.PDF_MAX_PAGES,
      maxInflatedBytes: e.PDF_MAX_INFLATED_MB * 1024 * 1024,
    },
    metrics: { enabled: e.METRICS_ENABLED, token: e.METRICS_TOKEN },
    llm: {
      provider: e.LLM_PROVIDER,
      model: e.LLM_MODEL,
      openaiApiKey: e.OPENAI_API_KEY,
      openaiBaseUrl: e.OPENAI_BASE_URL,
      anthropicApiKey: e.ANTHROPIC_API_KEY,
      anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
      openaiCompatibleBaseUrl: e.OPENAI_COMPATIBLE_BASE_URL,
      openaiCompatibleApiKey: e.OPENAI_COMPATIBLE_API_KEY,
      allowPrivateBaseUrls: e.LLM_ALLOW_PRIVATE_BASE_URLS,
      structuredOutput: e.LLM_STRUCTURED_OUTPUT,
      prices: parsePrices(e.LLM_PRICES_JSON),
    },
    embeddedWorker: e.EMBEDDED_WORKER ?? e.DATABASE_URL === undefined,
    agents: {
      maxConcurrentSessions: e.AGENT_MAX_CONCURRENT_SESSIONS,
      sessionTokenBudget: e.AGENT_SESSION_TOKEN_BUDGET,
      phaseTimeoutSeconds: e.AGENT_PHASE_TIMEOUT_SECONDS,
      workerConcurrency: e.AGENT_WORKER_CONCURRENCY,
      leaseSeconds: e.AGENT_LEASE_SECONDS,
      wsHeartbeatSeconds: e.WS_HEARTBEAT_SECONDS,
      wsMaxBufferedBytes: e.WS_MAX_BUFFERED_BYTES,
    },
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    /** The raw environment, for the variables teams and sources declare (server/agents/kit). */
    env: raw,
  };
}

/**
 * The server's configuration, derived from the schema: one definition of the variables, their
 * parsing and the shape the code reads.
 */
export type Config = ReturnType<typeof shape>;

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: RawEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError(
      'Invalid configuration: set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither',
    );
  }
  return shape(e, { ...env });
}
