import {
  TRENDING_TOPIC_COUNT,
  type TrendingTopic,
  type TrendsResult,
  type YearCount,
} from '../../../../common/teams/ideation';
import type { OpenAlexClient } from '../../../sources/openalex';

/**
 * Trend-driven discovery (automatic mode): the economics topics whose publication output grew
 * most over the last three complete years against the three years before, computed from
 * OpenAlex's real counts of works by topic and year. No model is involved.
 */

/** OpenAlex's field "Economics, Econometrics and Finance" (topic hierarchy: field 20). */
export const ECONOMICS_FIELD = { id: 'fields/20', label: 'Economics, Econometrics and Finance' };

/**
 * A topic needs this many works in the baseline period to be compared: growth from a handful of
 * works (3 -> 12 is +300 %) says nothing about a field's direction.
 */
export const MIN_BASELINE_WORKS = 50;

export interface TrendWindow {
  baseline: [number, number];
  recent: [number, number];
}

/** The last three complete years, and the three before them. */
export function trendWindow(now: Date): TrendWindow {
  const last = now.getUTCFullYear() - 1;
  return { baseline: [last - 5, last - 3], recent: [last - 2, last] };
}

export function yearsOf([from, to]: [number, number]): number[] {
  const out: number[] = [];
  for (let y = from; y <= to; y++) out.push(y);
  return out;
}

/** One year's works of the field grouped by primary topic, as OpenAlex answered. */
export interface TopicYearCounts {
  year: number;
  groups: Array<{ key: string; label: string; count: number }>;
}

/** 'https://openalex.org/T10140' -> 'T10140'. */
export function shortOpenAlexId(id: string): string {
  return id.replace(/^https?:\/\/openalex\.org\//, '');
}

/**
 * Ranks topics by growth (recent works / baseline works - 1), highest first; ties by more
 * recent works, then by id, so the order never depends on the reply's order. Topics under
 * MIN_BASELINE_WORKS in the baseline period are not compared.
 */
export function rankTrendingTopics(
  counts: TopicYearCounts[],
  window: TrendWindow,
): { considered: number; ranked: TrendingTopic[] } {
  const topics = new Map<string, { label: string; byYear: Map<number, number> }>();
  for (const { year, groups } of counts) {
    for (const g of groups) {
      const id = shortOpenAlexId(g.key);
      const t = topics.get(id) ?? { label: g.label, byYear: new Map<number, number>() };
      t.byYear.set(year, (t.byYear.get(year) ?? 0) + g.count);
      topics.set(id, t);
    }
  }
  const years = [...yearsOf(window.baseline), ...yearsOf(window.recent)];
  const sum = (byYear: Map<number, number>, range: [number, number]) =>
    yearsOf(range).reduce((n, y) => n + (byYear.get(y) ?? 0), 0);
  const ranked: TrendingTopic[] = [];
  for (const [id, t] of topics) {
    const baselineCount = sum(t.byYear, window.baseline);
    if (baselineCount < MIN_BASELINE_WORKS) continue;
    const recentCount = sum(t.byYear, window.recent);
    const countsByYear: YearCount[] = years.map((year) => ({
      year,
      count: t.byYear.get(year) ?? 0,
    }));
    ranked.push({
      id,
      label: t.label,
      recentCount,
      baselineCount,
      growth: recentCount / baselineCount - 1,
      countsByYear,
    });
  }
  ranked.sort(
    (a, b) =>
      b.growth - a.growth ||
      b.recentCount - a.recentCount ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return { considered: ranked.length, ranked };
}

/** Growth as people read it: +46 %, -12 %. */
export function growthText(growth: number): string {
  const pct = Math.round(growth * 100);
  return `${pct >= 0 ? '+' : ''}${pct}%`;
}

const n = (x: number) => x.toLocaleString('en-US');

/** A topic as an item of the FINAL_QUESTIONS list and as a log line. */
export function topicItemText(t: TrendingTopic, window: TrendWindow): string {
  return (
    `${t.label}: ${n(t.recentCount)} works in ${window.recent[0]}-${window.recent[1]} vs ` +
    `${n(t.baselineCount)} in ${window.baseline[0]}-${window.baseline[1]} (${growthText(t.growth)})`
  );
}

export class TrendDiscoveryError extends Error {}

/** Asks OpenAlex for the field's works by topic, one call per year, and ranks the topics. */
export async function discoverTrends(
  openalex: OpenAlexClient,
  window: TrendWindow,
  signal: AbortSignal,
): Promise<TrendsResult> {
  const years = [...yearsOf(window.baseline), ...yearsOf(window.recent)];
  const counts = await Promise.all(
    years.map(async (year) => ({
      year,
      groups: await openalex.groupBy('primary_topic.id', {
        filter: { 'primary_topic.field.id': ECONOMICS_FIELD.id },
        fromYear: year,
        toYear: year,
        signal,
      }),
    })),
  );
  const { considered, ranked } = rankTrendingTopics(counts, window);
  if (ranked.length < TRENDING_TOPIC_COUNT) {
    throw new TrendDiscoveryError(
      `OpenAlex counts gave ${ranked.length} economics ${ranked.length === 1 ? 'topic' : 'topics'} ` +
        `with at least ${MIN_BASELINE_WORKS} works in ${window.baseline[0]}-${window.baseline[1]}; ` +
        `trend discovery needs ${TRENDING_TOPIC_COUNT}`,
    );
  }
  return {
    field: ECONOMICS_FIELD.label,
    recentYears: window.recent,
    baselineYears: window.baseline,
    topicsConsidered: considered,
    topics: ranked.slice(0, TRENDING_TOPIC_COUNT),
  };
}
