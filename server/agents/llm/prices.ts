import { DEFAULT_MODEL_PRICES, type ModelPrice, type PriceTable } from '../../../common/usage';

/**
 * Estimated prices in US dollars per million tokens, by model id. The built-in table
 * (common/usage.ts, shared with the usage reports and Settings) holds the providers' published
 * list prices for the models the presets map to and their near neighbours; LLM_PRICES_JSON adds
 * or replaces entries. A model that is in neither costs `null` (unknown), never 0: self-hosted and
 * unlisted models are not free by assumption. The cost stored with each call uses this table;
 * the usage reports compute theirs again when read, with the user's own prices over it.
 */
export {
  DEFAULT_MODEL_PRICES,
  estimateCostUsd,
  priceOf,
  type ModelPrice,
  type PriceTable,
} from '../../../common/usage';

export function buildPriceTable(overrides: Record<string, ModelPrice> | undefined): PriceTable {
  return { ...DEFAULT_MODEL_PRICES, ...overrides };
}
