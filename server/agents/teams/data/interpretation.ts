import type { AnalysisResult, DatasetProfile } from '../../../../common/teams/data';
import { INTERPRETATION_SYSTEM, interpretationPrompt } from './prompts';

/**
 * The model's paragraph about the computed results, added only when a language model is
 * configured: the prompt (prompts.ts) carries a digest of the numbers the engine computed.
 */

const round = (v: unknown): unknown =>
  typeof v === 'number' ? Number(v.toPrecision(4)) : Array.isArray(v) ? v.map(round) : v;

/** A compact, JSON-ready digest of the computed results for the prompt. */
export function digest(analysis: AnalysisResult, profile: DatasetProfile): unknown {
  const base = {
    rows: profile.rowCount,
    columns: profile.columnCount,
    missingShare: round(profile.missingCellsShare),
    duplicateRows: profile.duplicateRows,
    timeIndex: profile.timeSeries
      ? {
          frequency: profile.timeSeries.frequency,
          start: profile.timeSeries.start,
          end: profile.timeSeries.end,
          missingPeriods: profile.timeSeries.gaps.missingPeriods,
        }
      : null,
    alerts: profile.alerts.slice(0, 10).map((a) => a.message),
  };
  switch (analysis.type) {
    case 'profile':
      return { ...base, kinds: analysis.overview.kinds };
    case 'descriptive':
      return {
        ...base,
        summary: analysis.numeric.slice(0, 12).map((r) => ({
          column: r.column,
          mean: round(r.mean),
          sd: round(r.sd),
          median: round(r.median),
          min: round(r.min),
          max: round(r.max),
        })),
        byGroup: analysis.byGroup
          ? {
              column: analysis.byGroup.groupColumn,
              groups: analysis.byGroup.groups.slice(0, 8).map((g) => ({
                group: g.group,
                rows: g.count,
                means: Object.fromEntries(
                  g.stats.slice(0, 5).map((s) => [s.column, round(s.mean)]),
                ),
              })),
            }
          : null,
      };
    case 'exploratory':
      return {
        ...base,
        distributions: analysis.distributions
          .slice(0, 12)
          .map((d) => ({ column: d.column, shape: d.shape, skewness: round(d.skewness) })),
        correlations: analysis.strongestCorrelations
          .slice(0, 8)
          .map((c) => ({ a: c.a, b: c.b, pearson: round(c.pearson), spearman: round(c.spearman) })),
        trends: analysis.trends?.columns.slice(0, 8).map((t) => ({
          column: t.column,
          from: t.first,
          to: t.last,
          direction: t.direction,
          slopePerPeriod: round(t.slopePerPeriod),
        })),
      };
    case 'quality':
      return {
        ...base,
        score: {
          completeness: round(analysis.score.completeness),
          uniqueness: round(analysis.score.uniqueness),
        },
        issues: analysis.issues.slice(0, 12).map((i) => `${i.severity}: ${i.message}`),
      };
  }
}

/** The paragraph, or why there is none (no model configured, or the call failed). */
export async function interpret(
  analysis: AnalysisResult,
  profile: DatasetProfile,
  generateText: (p: { system: string; prompt: string }) => Promise<string>,
  signal: AbortSignal,
): Promise<{ text: string | null; note: string | null }> {
  try {
    const text = await generateText({
      system: INTERPRETATION_SYSTEM,
      prompt: interpretationPrompt(analysis.type, digest(analysis, profile)),
    });
    const trimmed = text.trim();
    return trimmed
      ? { text: trimmed, note: null }
      : { text: null, note: 'The model returned no text.' };
  } catch (err) {
    if (signal.aborted) throw err;
    if ((err as { code?: unknown }).code === 'model_not_configured') {
      return {
        text: null,
        note: 'No language model is configured, so there is no interpretation paragraph; every result above is computed from the data.',
      };
    }
    const message = err instanceof Error ? err.message : String(err);
    return {
      text: null,
      note: `The interpretation could not be written (the model call failed: ${message}).`,
    };
  }
}
