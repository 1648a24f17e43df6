import type { AnalysisResult, DatasetProfile } from '../../../../common/teams/data';
import type { CitationGate } from '../../kit';
import { INTERPRETATION_SYSTEM, interpretationPrompt } from './prompts';

/**
 * The model's paragraph about the computed results, added only when a language model is
 * configured: the prompt (prompts.ts) carries a digest of the numbers the engine computed, and
 * the answer passes the citation gate before anyone sees it.
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

export interface Interpretation {
  /** The paragraph as shown and saved: checked by the citation gate; null when there is none. */
  text: string | null;
  /** Why there is no paragraph. */
  note: string | null;
}

/** Shorter than this after the gate, a paragraph says nothing worth showing. */
const MIN_WORDS = 3;

/**
 * The paragraph, or why there is none: no model configured, the call failed, the model wrote
 * nothing, or nothing was left once the citation gate removed references to works the session
 * never retrieved (the Data team retrieves none, so every reference goes, each with a log line).
 * None of these touches the computed results.
 */
export async function interpret(
  analysis: AnalysisResult,
  profile: DatasetProfile,
  generateText: (p: { system: string; prompt: string }) => Promise<string>,
  signal: AbortSignal,
  citations: CitationGate,
): Promise<Interpretation> {
  let text: string;
  try {
    text = await generateText({
      system: INTERPRETATION_SYSTEM,
      prompt: interpretationPrompt(analysis.type, digest(analysis, profile)),
    });
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
      note: `The interpretation is missing: the model call failed (${message}). Every result above is computed from the data.`,
    };
  }
  if (!text.trim()) {
    return {
      text: null,
      note: 'The interpretation is missing: the model returned no text. Every result above is computed from the data.',
    };
  }
  const gated = (await citations.gate(text.trim(), { where: 'Data team interpretation' })).trim();
  if (gated.split(/\s+/).filter((w) => /\w/.test(w)).length < MIN_WORDS) {
    return {
      text: null,
      note: "The interpretation is missing: nothing was left of the model's text once the references to works this session did not retrieve were removed. Every result above is computed from the data.",
    };
  }
  return { text: gated, note: null };
}
