/**
 * The language-model layer: every model call goes through here.
 * See README.md in this folder for the API, configuration and the model mapping.
 */
export {
  createModelLayer,
  type CallUsage,
  type ChatMessage,
  type ModelAvailability,
  type ModelCallContext,
  type ModelHandle,
  type ModelLayer,
  type ModelLayerDeps,
  type ModelLogger,
  type ObjectInput,
  type ObjectResult,
  type PromptInput,
  type TextResult,
} from './model-layer';
export {
  BaseUrlRefusedError,
  isModelError,
  LLM_SETUP_HINT,
  ModelCallAbortedError,
  ModelCallError,
  ModelError,
  ModelNotConfiguredError,
  ModelOutputError,
  type ModelCallErrorKind,
} from './errors';
export { MODEL_PRESETS, resolveModelTarget, type ModelTarget } from './models';
export { DEFAULT_MODEL_PRICES, estimateCostUsd, type ModelPrice } from './prices';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
export { serverLlmAvailability, type LlmAvailability } from './server-config';
export type { UsageBreakdownRow, UsageTotals } from './usage-store';
export * from '../../platform/llm-settings';
