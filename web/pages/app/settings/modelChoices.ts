import {
  LLM_PROVIDER_LABELS,
  MODEL_VERSIONS,
  type LlmProviderName,
  type ModelStatus,
} from '../../../../common/settings';

export type ModelChoice = (typeof MODEL_VERSIONS)[number];

/** One entry of the model dropdown: the stored value and what the researcher reads. */
export interface ChoiceOption {
  value: ModelChoice;
  /** The model it runs (gpt-4.1, claude-sonnet-4-5, the server's model), or the choice's name. */
  label: string;
  /** Where it runs, or why it cannot run yet. */
  detail: string;
}

/**
 * Which preset a provider's models are named after first, when several presets run the same
 * model (on OpenAI gpt-4 and claude-3 both run gpt-4.1): the one named like the provider's own.
 */
const PREFERENCE: Record<LlmProviderName, readonly ModelChoice[]> = {
  openai: ['gpt-4', 'gpt-3.5-turbo', 'claude-3'],
  anthropic: ['claude-3', 'gpt-3.5-turbo', 'gpt-4'],
  'openai-compatible': ['gpt-4', 'gpt-3.5-turbo', 'claude-3'],
};

/** Before any model is configured: the presets named after the chosen provider's models. */
const NAMED_FOR: Record<LlmProviderName, readonly ModelChoice[]> = {
  openai: ['gpt-4', 'gpt-3.5-turbo'],
  anthropic: ['claude-3'],
  'openai-compatible': [],
};

const NOT_CONFIGURED = 'Add an API key under API Keys to use it';

/**
 * The dropdown's entries for the model status of the current (draft) settings. The spec's
 * choices are tiers; each is shown as the model it actually runs, presets that would run the
 * same model as another are left out (so no "gpt-4" runs a Claude or a local model), and presets
 * that cannot run on the provider are hidden (an OpenAI-compatible server runs the id it serves:
 * Custom). Without a configured model, only the presets named after the chosen provider's
 * models are offered. The selected value is always listed, so the field never shows blank.
 */
export function modelChoiceOptions(
  status: ModelStatus | undefined,
  chosenProvider: LlmProviderName,
  selected: ModelChoice,
): ChoiceOption[] {
  const byValue = new Map(status?.choices.map((c) => [c.value, c]) ?? []);
  const runnable = (status?.choices ?? []).filter((c) => c.value !== 'custom' && c.model);
  const provider: LlmProviderName = status?.provider ?? runnable[0]?.provider ?? chosenProvider;
  const providerLabel = LLM_PROVIDER_LABELS[provider];
  const out: ChoiceOption[] = [];

  if (runnable.length > 0) {
    const seen = new Set<string>();
    // The selected preset first (it keeps its place as the value), then the provider's order.
    const order = [
      ...(selected !== 'custom' ? [selected] : []),
      ...PREFERENCE[provider].filter((v) => v !== selected),
    ];
    const kept = new Set<ModelChoice>();
    for (const value of order) {
      const c = byValue.get(value);
      if (!c?.model || seen.has(c.model)) continue;
      seen.add(c.model);
      kept.add(value);
    }
    for (const value of MODEL_VERSIONS) {
      if (value === 'custom') continue;
      const c = byValue.get(value);
      if (kept.has(value) && c?.model) {
        const where = c.provider ? LLM_PROVIDER_LABELS[c.provider] : providerLabel;
        out.push({ value, label: c.model, detail: `Runs on ${where}` });
      } else if (value === selected) {
        out.push({
          value,
          label: value,
          detail: `Cannot run on ${providerLabel}: choose another model`,
        });
      }
    }
  } else {
    // A user's own OpenAI-compatible server is set up but runs only the id it serves.
    const detail = status?.canListModels
      ? `Cannot run on ${LLM_PROVIDER_LABELS['openai-compatible']}: choose Custom model`
      : NOT_CONFIGURED;
    for (const value of MODEL_VERSIONS) {
      if (value === 'custom') continue;
      if (NAMED_FOR[provider].includes(value) || value === selected)
        out.push({ value, label: value, detail });
    }
  }

  const custom = byValue.get('custom');
  out.push({
    value: 'custom',
    label: 'Custom model',
    detail: custom?.model
      ? `Runs ${custom.model} on ${custom.provider ? LLM_PROVIDER_LABELS[custom.provider] : providerLabel}`
      : status?.canListModels
        ? 'A model id your server lists, or any id it serves'
        : runnable.length > 0
          ? `Any model id ${providerLabel} serves`
          : NOT_CONFIGURED,
  });
  return out;
}
