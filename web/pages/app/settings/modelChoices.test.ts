import { describe, expect, it } from 'vitest';
import type { LlmProviderName, ModelStatus } from '../../../../common/settings';
import { modelChoiceOptions } from './modelChoices';

type Runs = Partial<Record<'gpt-4' | 'gpt-3.5-turbo' | 'claude-3' | 'custom', string | null>>;

function status(provider: LlmProviderName | null, runs: Runs, canListModels = false): ModelStatus {
  return {
    configured: provider !== null,
    provider,
    model: runs['gpt-4'] ?? null,
    source: provider ? 'user' : null,
    choices: (['gpt-4', 'gpt-3.5-turbo', 'claude-3', 'custom'] as const).map((value) => ({
      value,
      provider: runs[value] ? provider : null,
      model: runs[value] ?? null,
    })),
    canListModels,
  };
}

const labels = (s: ModelStatus | undefined, p: LlmProviderName, sel = 'gpt-4' as const) =>
  modelChoiceOptions(s, p, sel).map((o) => `${o.value}=${o.label}: ${o.detail}`);

describe('the model dropdown', () => {
  it('lists OpenAI models on OpenAI, each once and named as it runs', () => {
    const s = status('openai', {
      'gpt-4': 'gpt-4.1',
      'gpt-3.5-turbo': 'gpt-4.1-mini',
      'claude-3': 'gpt-4.1',
    });
    expect(labels(s, 'openai')).toEqual([
      'gpt-4=gpt-4.1: Runs on OpenAI',
      'gpt-3.5-turbo=gpt-4.1-mini: Runs on OpenAI',
      'custom=Custom model: Any model id OpenAI serves',
    ]);
  });

  it('lists Claude models on Anthropic, with no gpt name in sight', () => {
    const s = status('anthropic', {
      'gpt-4': 'claude-sonnet-4-5',
      'gpt-3.5-turbo': 'claude-haiku-4-5',
      'claude-3': 'claude-sonnet-4-5',
    });
    const options = modelChoiceOptions(s, 'anthropic', 'claude-3');
    expect(options.map((o) => o.label)).toEqual([
      'claude-haiku-4-5',
      'claude-sonnet-4-5',
      'Custom model',
    ]);
    expect(options.every((o) => !/gpt/.test(o.label + o.detail))).toBe(true);
    // A saved gpt-4 keeps its place, shown as the Claude model it runs.
    expect(modelChoiceOptions(s, 'anthropic', 'gpt-4').map((o) => o.value)).toEqual([
      'gpt-4',
      'gpt-3.5-turbo',
      'custom',
    ]);
  });

  it("shows the server's own model once, never as gpt-4 or claude-3", () => {
    const s = status('openai-compatible', {
      'gpt-4': 'fake-econ-1',
      'gpt-3.5-turbo': 'fake-econ-1',
      'claude-3': 'fake-econ-1',
    });
    expect(labels(s, 'openai')).toEqual([
      'gpt-4=fake-econ-1: Runs on OpenAI-compatible server',
      'custom=Custom model: Any model id OpenAI-compatible server serves',
    ]);
  });

  it("offers only a custom id on the user's own OpenAI-compatible server", () => {
    const s = status('openai-compatible', { custom: 'llama3.1:8b' }, true);
    expect(labels(s, 'openai-compatible', 'custom' as never)).toEqual([
      'custom=Custom model: Runs llama3.1:8b on OpenAI-compatible server',
    ]);
    const none = status('openai-compatible', {}, true);
    expect(labels(none, 'openai-compatible', 'custom' as never)).toEqual([
      'custom=Custom model: A model id your server lists, or any id it serves',
    ]);
  });

  it('keeps a saved choice that cannot run visible, saying so', () => {
    const s = status('openai-compatible', { custom: null }, true);
    expect(labels(s, 'openai-compatible')[0]).toBe(
      'gpt-4=gpt-4: Cannot run on OpenAI-compatible server: choose Custom model',
    );
  });

  it("without a model offers the chosen provider's names and says what is missing", () => {
    const s = status(null, {});
    expect(labels(s, 'anthropic', 'claude-3' as never)).toEqual([
      'claude-3=claude-3: Add an API key under API Keys to use it',
      'custom=Custom model: Add an API key under API Keys to use it',
    ]);
    expect(modelChoiceOptions(s, 'openai', 'gpt-4').map((o) => o.value)).toEqual([
      'gpt-4',
      'gpt-3.5-turbo',
      'custom',
    ]);
  });
});
