/**
 * Estimated prices in US dollars per million tokens, by model id. The table holds the
 * providers' published list prices for the models the presets map to and their near
 * neighbours; LLM_PRICES_JSON adds or replaces entries. A model that is in neither costs
 * `null` (unknown), never 0: self-hosted and unlisted models are not free by assumption.
 */
export interface ModelPrice {
  /** USD per million input (prompt) tokens. */
  input: number;
  /** USD per million output (completion) tokens. */
  output: number;
}

export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
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

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export function buildPriceTable(overrides: Record<string, ModelPrice> | undefined): PriceTable {
  return { ...DEFAULT_MODEL_PRICES, ...overrides };
}

export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  const id = model.trim().toLowerCase();
  return table[id] ?? table[model] ?? table[id.replace(SNAPSHOT_SUFFIX, '')];
}

/** Estimated cost in USD, or null when the model has no known price. */
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
