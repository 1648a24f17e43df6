import { z } from 'zod';
import { dataReply } from './api';

/**
 * What the model cost: prices per million tokens by model, and the usage reports built from the
 * recorded model calls (llm_calls). Costs are ESTIMATES computed when a report is read: tokens of
 * each model times that model's price. A model without a price has an unknown cost, never 0.
 */

export interface ModelPrice {
  /** US dollars per million input (prompt) tokens. */
  input: number;
  /** US dollars per million output (completion) tokens. */
  output: number;
}
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Built-in DEFAULT prices, US dollars per million tokens: OpenAI's and Anthropic's published
 * list prices (standard tier, no caching or batch discounts) as of November 2025, for the models
 * the Settings model picker runs (gpt-4 -> gpt-4.1, gpt-3.5-turbo -> gpt-4.1-mini, claude-3 and
 * gpt-4 on Anthropic -> claude-sonnet-4-5, gpt-3.5-turbo on Anthropic -> claude-haiku-4-5; see
 * server/agents/llm/models.ts) and their near neighbours. Providers change their prices: these
 * are defaults only. The server's LLM_PRICES_JSON replaces or adds entries for everybody, and each
 * user may set their own in Settings > Usage.
 */
export const DEFAULT_PRICES_AS_OF = '2025-11';
export const DEFAULT_MODEL_PRICES: PriceTable = {
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-4': { input: 30, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4-0': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
};

// Dated snapshots (gpt-4.1-2025-04-14, claude-sonnet-4-5-20250929) and "-latest" aliases are
// priced like the model they name.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** The key a model id is priced under: trimmed and lower-cased. */
export function priceKey(model: string): string {
  return model.trim().toLowerCase();
}

/** The price of a model id in a table (exact id, then without a snapshot suffix), if any. */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  const id = priceKey(model);
  const own = (key: string) => (Object.hasOwn(table, key) ? table[key] : undefined);
  return own(id) ?? own(model) ?? own(id.replace(SNAPSHOT_SUFFIX, ''));
}

/** Estimated cost in US dollars, or null when the model has no known price. */
export function estimateCostUsd(
  table: PriceTable,
  model: string,
  inputTokens: number,
  outputTokens: number,
): number | null {
  const price = priceOf(table, model);
  if (!price) return null;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}

// ---------------------------------------------------------------------------------------------
// Prices in Settings
// ---------------------------------------------------------------------------------------------

export const MODEL_PRICE_LIMITS = {
  /** Highest price accepted, USD per million tokens (above any list price by far). */
  maxUsdPerMillion: 10_000,
  modelIdMaxLength: 200,
  /** Prices one user may keep. */
  maxEntries: 100,
} as const;

const usdPerMillion = (field: string) =>
  z
    .number({ message: `${field} must be a number` })
    .finite(`${field} must be a number`)
    .min(0, `${field} must be 0 or more`)
    .max(
      MODEL_PRICE_LIMITS.maxUsdPerMillion,
      `${field} must be at most ${MODEL_PRICE_LIMITS.maxUsdPerMillion} (US dollars per million tokens)`,
    );

export const modelPriceSchema = z.object({
  input: usdPerMillion('input'),
  output: usdPerMillion('output'),
});

export const modelIdSchema = z
  .string({ message: 'model must be text' })
  .trim()
  .min(1, 'model must not be empty')
  .max(
    MODEL_PRICE_LIMITS.modelIdMaxLength,
    `model must be at most ${MODEL_PRICE_LIMITS.modelIdMaxLength} characters`,
  )
  .refine((v) => !/\s/.test(v), { message: 'model must not contain spaces' });

/**
 * PUT /api/settings/model-prices: the user's own prices, the whole list (what is left out goes
 * back to the server's or the default price). A model may appear once.
 */
export const updateModelPricesRequestSchema = z.object({
  prices: z
    .array(z.object({ model: modelIdSchema }).extend(modelPriceSchema.shape))
    .max(
      MODEL_PRICE_LIMITS.maxEntries,
      `prices may hold at most ${MODEL_PRICE_LIMITS.maxEntries} models`,
    )
    .refine((list) => new Set(list.map((p) => priceKey(p.model))).size === list.length, {
      message: 'each model may be priced once',
    }),
});
export type UpdateModelPricesRequest = z.input<typeof updateModelPricesRequestSchema>;

export const PRICE_SOURCES = ['default', 'server', 'user'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** One model's price as it applies to the user, and where it comes from. */
export const pricedModelSchema = z.object({
  model: z.string(),
  input: z.number(),
  output: z.number(),
  source: z.enum(PRICE_SOURCES),
  /** The price before the user's own (default or server), when the user set one. */
  fallback: modelPriceSchema.nullable(),
});
export type PricedModel = z.infer<typeof pricedModelSchema>;

export const modelPricesSchema = z.object({
  /** Every priced model (defaults, the server's, the user's), by model id. */
  models: z.array(pricedModelSchema),
  /** Models the user's calls used that have no price anywhere (their cost is unknown). */
  unpriced: z.array(z.string()),
  defaultsAsOf: z.string(),
});
export type ModelPrices = z.infer<typeof modelPricesSchema>;
export const modelPricesReplySchema = dataReply(z.object({ prices: modelPricesSchema }));

// ---------------------------------------------------------------------------------------------
// Usage reports
// ---------------------------------------------------------------------------------------------

export const usageTotalsSchema = z.object({
  calls: z.number().int(),
  failedCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  totalTokens: z.number().int(),
  /**
   * Estimated US dollars over the calls whose model has a price; null when none has (unknown).
   * With `unpricedModels` non-empty and a number here, the cost is this much plus an unknown part.
   */
  costUsd: z.number().nullable(),
  /** Models used here that have no price (their tokens are not in costUsd). */
  unpricedModels: z.array(z.string()),
});
export type UsageTotals = z.infer<typeof usageTotalsSchema>;

export const modelUsageSchema = usageTotalsSchema.extend({ model: z.string() });
export const monthUsageSchema = usageTotalsSchema.extend({
  /** 'YYYY-MM', UTC. */
  month: z.string(),
});
export const teamUsageSchema = usageTotalsSchema.extend({
  /** null: calls outside any team session (a Settings connection test, a deleted session). */
  teamId: z.string().nullable(),
  teamName: z.string(),
});
export type ModelUsage = z.infer<typeof modelUsageSchema>;
export type MonthUsage = z.infer<typeof monthUsageSchema>;
export type TeamUsage = z.infer<typeof teamUsageSchema>;

/** GET /api/agents/sessions/{id}/usage and GET /api/agents/usage?sessions=...: */
export const sessionsUsageSchema = z.object({
  total: usageTotalsSchema,
  byModel: z.array(modelUsageSchema),
});
export type SessionsUsage = z.infer<typeof sessionsUsageSchema>;
export const sessionsUsageReplySchema = dataReply(z.object({ usage: sessionsUsageSchema }));

export const SESSIONS_USAGE_MAX = 50;
export const sessionsUsageQuerySchema = z.object({
  /** Comma-separated session ids (a customized workflow's steps). */
  sessions: z
    .string({ message: 'sessions must list session ids' })
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.uuid({ message: 'sessions must list session ids' }))
        .min(1, 'sessions must list at least one session id')
        .max(SESSIONS_USAGE_MAX, `sessions may list at most ${SESSIONS_USAGE_MAX} ids`),
    ),
});

/** GET /api/settings/usage (the user's own calls) and GET /api/admin/usage (every call). */
export const usageReportSchema = z.object({
  total: usageTotalsSchema,
  /** Newest month first. */
  byMonth: z.array(monthUsageSchema),
  byTeam: z.array(teamUsageSchema),
  byModel: z.array(modelUsageSchema),
  /** Admin report only: calls on the server's model key vs the users' own keys. */
  byKeySource: z
    .array(usageTotalsSchema.extend({ keySource: z.enum(['server', 'user']) }))
    .optional(),
  /** Admin report only: users with at least one call. */
  users: z.number().int().optional(),
  /** Whose prices the costs use: the user's own, or the server's (defaults + LLM_PRICES_JSON). */
  prices: z.enum(['user', 'server']),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
export const usageReportReplySchema = dataReply(z.object({ usage: usageReportSchema }));

/** "$0.0123", "$1.20 + unknown", "unknown": a cost as the screens show it. */
export function formatCost(totals: Pick<UsageTotals, 'costUsd' | 'unpricedModels' | 'calls'>) {
  if (totals.costUsd === null) return totals.calls === 0 ? '$0.00' : 'unknown';
  const usd = totals.costUsd;
  const text =
    usd === 0
      ? '$0.00'
      : usd < 0.01
        ? `$${usd.toFixed(4)}`
        : usd < 100
          ? `$${usd.toFixed(2)}`
          : `$${Math.round(usd).toLocaleString('en-US')}`;
  return totals.unpricedModels.length > 0 ? `${text} + unknown` : text;
}
