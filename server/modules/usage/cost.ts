import { estimateCostUsd, type PriceTable, type UsageTotals } from '../../../common/usage';
import type { ModelCounts } from './store';

/**
 * Totals of some calls, given per model, with their estimated cost under a price table. A model
 * without a price makes its share of the cost unknown: it is named in `unpricedModels` and left
 * out of `costUsd`, which is null when no call had a known price (never 0 by assumption). Calls
 * that used no tokens cost nothing whatever their model.
 */
export function totalsOf(rows: readonly ModelCounts[], prices: PriceTable): UsageTotals {
  let calls = 0;
  let failedCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cost = 0;
  let priced = 0;
  const unpriced = new Set<string>();
  for (const r of rows) {
    calls += r.calls;
    failedCalls += r.failedCalls;
    inputTokens += r.inputTokens;
    outputTokens += r.outputTokens;
    if (r.inputTokens + r.outputTokens === 0) continue;
    const usd = estimateCostUsd(prices, r.model, r.inputTokens, r.outputTokens);
    if (usd === null) unpriced.add(r.model);
    else {
      cost += usd;
      priced += r.calls;
    }
  }
  return {
    calls,
    failedCalls,
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    costUsd: priced === 0 && unpriced.size > 0 ? null : cost,
    unpricedModels: [...unpriced].sort(),
  };
}

/** Rows grouped by a key, each group's totals (in first-seen key order). */
export function totalsByKey<K>(
  rows: ReadonlyArray<ModelCounts & { key: K }>,
  prices: PriceTable | ((key: K) => PriceTable),
): Array<{ key: K; totals: UsageTotals }> {
  const groups = new Map<K, ModelCounts[]>();
  for (const r of rows) {
    const list = groups.get(r.key);
    if (list) list.push(r);
    else groups.set(r.key, [r]);
  }
  return [...groups].map(([key, list]) => ({
    key,
    totals: totalsOf(list, typeof prices === 'function' ? prices(key) : prices),
  }));
}

/** The sum of several totals (e.g. sessions priced with different users' prices). */
export function sumTotals(parts: readonly UsageTotals[]): UsageTotals {
  const unpriced = new Set<string>();
  let known = false;
  const out: UsageTotals = {
    calls: 0,
    failedCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    costUsd: 0,
    unpricedModels: [],
  };
  let cost = 0;
  for (const p of parts) {
    out.calls += p.calls;
    out.failedCalls += p.failedCalls;
    out.inputTokens += p.inputTokens;
    out.outputTokens += p.outputTokens;
    out.totalTokens += p.totalTokens;
    for (const m of p.unpricedModels) unpriced.add(m);
    if (p.costUsd !== null) {
      cost += p.costUsd;
      if (p.costUsd > 0 || (p.totalTokens > 0 && p.unpricedModels.length === 0)) known = true;
    }
  }
  out.unpricedModels = [...unpriced].sort();
  out.costUsd = unpriced.size > 0 && !known ? null : cost;
  return out;
}
