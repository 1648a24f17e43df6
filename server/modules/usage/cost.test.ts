import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_PRICES, formatCost, priceOf } from '../../../common/usage';
import { sumTotals, totalsByKey, totalsOf } from './cost';

const row = (model: string, inputTokens: number, outputTokens: number, calls = 1) => ({
  model,
  calls,
  failedCalls: 0,
  inputTokens,
  outputTokens,
});

describe('cost computation', () => {
  it('prices tokens per million with the model price', () => {
    const t = totalsOf([row('gpt-4.1', 1_000_000, 500_000)], DEFAULT_MODEL_PRICES);
    // $2 per million input, $8 per million output.
    expect(t.costUsd).toBeCloseTo(6, 10);
    expect(t).toMatchObject({ calls: 1, totalTokens: 1_500_000, unpricedModels: [] });
  });

  it('a model without a price makes the cost unknown, never 0', () => {
    const t = totalsOf([row('llama3.1:8b', 1000, 1000, 3)], DEFAULT_MODEL_PRICES);
    expect(t.costUsd).toBeNull();
    expect(t.unpricedModels).toEqual(['llama3.1:8b']);
    expect(formatCost(t)).toBe('unknown');
  });

  it('a mix is the known part plus an unknown part', () => {
    const t = totalsOf(
      [row('claude-haiku-4-5', 1_000_000, 0), row('my-model', 10, 10)],
      DEFAULT_MODEL_PRICES,
    );
    expect(t.costUsd).toBeCloseTo(1, 10);
    expect(t.unpricedModels).toEqual(['my-model']);
    expect(formatCost(t)).toBe('$1.00 + unknown');
  });

  it('calls that used no tokens cost nothing whatever the model', () => {
    const t = totalsOf([row('unknown-model', 0, 0, 2)], DEFAULT_MODEL_PRICES);
    expect(t).toMatchObject({ costUsd: 0, unpricedModels: [], calls: 2 });
    expect(formatCost({ costUsd: null, unpricedModels: [], calls: 0 })).toBe('$0.00');
  });

  it('dated snapshots and case are priced like their model; the prototype is not a model', () => {
    expect(priceOf(DEFAULT_MODEL_PRICES, 'GPT-4.1-2025-04-14')).toEqual({ input: 2, output: 8 });
    expect(priceOf(DEFAULT_MODEL_PRICES, 'claude-sonnet-4-5-20250929')?.input).toBe(3);
    expect(priceOf(DEFAULT_MODEL_PRICES, 'constructor')).toBeUndefined();
    expect(priceOf(DEFAULT_MODEL_PRICES, 'toString')).toBeUndefined();
  });

  it("a user's price over the defaults changes the cost", () => {
    const table = { ...DEFAULT_MODEL_PRICES, 'gpt-4.1': { input: 1, output: 1 } };
    expect(totalsOf([row('gpt-4.1', 1_000_000, 1_000_000)], table).costUsd).toBeCloseTo(2, 10);
  });

  it('groups by key, and sums parts priced with different tables', () => {
    const groups = totalsByKey(
      [
        { key: '2026-10', ...row('gpt-4.1', 1_000_000, 0) },
        { key: '2026-11', ...row('gpt-4.1', 0, 1_000_000) },
        { key: '2026-11', ...row('x', 5, 5) },
      ],
      DEFAULT_MODEL_PRICES,
    );
    expect(groups.map((g) => [g.key, g.totals.costUsd, g.totals.unpricedModels])).toEqual([
      ['2026-10', 2, []],
      ['2026-11', 8, ['x']],
    ]);
    const sum = sumTotals(groups.map((g) => g.totals));
    expect(sum).toMatchObject({ calls: 3, costUsd: 10, unpricedModels: ['x'] });
    const unknown = sumTotals([totalsOf([row('x', 1, 1)], {}), totalsOf([row('y', 1, 1)], {})]);
    expect(unknown).toMatchObject({ costUsd: null, unpricedModels: ['x', 'y'] });
  });

  it('formats small and large costs', () => {
    const f = (costUsd: number) => formatCost({ costUsd, unpricedModels: [], calls: 1 });
    expect(f(0.0042)).toBe('$0.0042');
    expect(f(1.234)).toBe('$1.23');
    expect(f(1234.5)).toBe('$1,235');
  });
});
