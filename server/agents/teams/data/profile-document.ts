import { modelPassage, ORIGIN_LABELS, type ProvenanceItem } from '../../../../common/provenance';
import { asSentence } from '../../../../common/text';
import {
  ANALYSIS_TYPE_LABELS,
  missingTokenLabel,
  type AnalysisResult,
  type ColumnProfile,
  type DatasetProfile,
  type ProfilingResult,
  type SourceResult,
} from '../../../../common/teams/data';

/**
 * The Data team's saved document: the profile of the analysed dataset with its data dictionary
 * (column, type, unit where known, missing share, description), the missing-value tokens found,
 * the alerts, the analysis' summary, and the model's interpretation marked as the model's
 * writing. Every number in it comes from the profiling engine.
 */

/** A missing-value token as the file holds it, in quotes ("NA", "."); the empty cell in words. */
function tokenText(token: string): string {
  return token === '' ? missingTokenLabel(token) : `"${token}"`;
}

export interface DictionaryRow {
  column: string;
  /** The profile's kind and DuckDB's storage type, e.g. "numeric (DOUBLE)". */
  type: string;
  /** Where the file or its source says it; null when nothing does. */
  unit: string | null;
  missingShare: number;
  description: string;
}

/** The text in the last parentheses of a label: "GDP (current US$)" -> "current US$". */
function parenthesised(label: string): string | null {
  const m = /\(([^()]{1,60})\)\s*$/.exec(label.trim());
  return m ? m[1]!.trim() : null;
}

const SUFFIX_UNITS: [RegExp, string][] = [
  [/(^|[_\s.])(pct|percent|percentage)$|%/i, '%'],
  [/(^|[_\s.])usd$/i, 'US$'],
  [/(^|[_\s.])eur$/i, 'EUR'],
  [/(^|[_\s.])gbp$/i, 'GBP'],
];

/**
 * A column's unit where the file or its source states it: a header ending in parentheses
 * ("gdp (current US$)"), a suffix (_pct, _usd), a World Bank indicator's own name or a FRED
 * series' stated units (for their value column), a date or a year.
 */
export function unitOf(column: ColumnProfile, source: SourceResult | null): string | null {
  const fromHeader = parenthesised(column.name);
  if (fromHeader) return fromHeader;
  for (const [pattern, unit] of SUFFIX_UNITS) if (pattern.test(column.name)) return unit;
  if (column.name === 'value' && source) {
    if (source.origin === 'world_bank') {
      // "GDP per capita (current US$), all countries ...": the indicator's name comes first.
      const indicator = source.description.split(/, /)[0] ?? '';
      const unit = parenthesised(indicator);
      if (unit) return unit;
    }
    if (source.origin === 'fred') {
      const m = /\(units: ([^;)]+)/.exec(source.description);
      if (m && m[1]!.trim() !== 'as published') return m[1]!.trim();
    }
  }
  if (column.kind === 'datetime') return 'date';
  if (/^year$/i.test(column.name) && column.kind === 'numeric') return 'year';
  return null;
}

const fmt = (v: number | null | undefined): string => {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return v.toLocaleString('en');
  return Number(v.toPrecision(6)).toString();
};
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** What the profile says of a column, in one line. */
function describe(c: ColumnProfile): string {
  const parts: string[] = [
    `${c.count.toLocaleString('en')} values, ${c.distinct.toLocaleString('en')} distinct`,
  ];
  if (c.numeric) {
    const n = c.numeric;
    parts.push(`${fmt(n.min)} to ${fmt(n.max)}, mean ${fmt(n.mean)}, sd ${fmt(n.sd)}`);
  } else if (c.datetime) {
    parts.push(`${c.datetime.min} to ${c.datetime.max}`);
  } else if (c.boolean) {
    parts.push(`${c.boolean.trueCount} true, ${c.boolean.falseCount} false`);
  } else if (c.topValues[0]) {
    const top = c.topValues[0];
    parts.push(`most frequent "${String(top.value)}" (${pct(top.share)})`);
  }
  const tokens = c.missingTokens ?? [];
  if (tokens.length > 0) {
    parts.push(
      `missing written as ${tokens.map((t) => `${tokenText(t.token)} (${t.count})`).join(', ')}`,
    );
  }
  return parts.join('; ');
}

export function dataDictionary(
  profile: DatasetProfile,
  source: SourceResult | null,
): DictionaryRow[] {
  return profile.columns.map((c) => ({
    column: c.name,
    type: `${c.kind} (${c.storageType})`,
    unit: unitOf(c, source),
    missingShare: c.missingShare,
    description: describe(c),
  }));
}

/** A Markdown table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\r?\n/g, ' ').replaceAll('|', '\\|');

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The numbers of the chosen analysis worth keeping in the document. */
function analysisSection(analysis: AnalysisResult): string {
  switch (analysis.type) {
    case 'profile':
      return `Completeness: ${pct(analysis.overview.completeness)} of cells hold a value.`;
    case 'descriptive':
      return analysis.numeric.length === 0
        ? 'No numeric columns.'
        : table(
            ['Column', 'Count', 'Mean', 'SD', 'Min', 'Median', 'Max', 'Skewness', 'Kurtosis'],
            analysis.numeric.map((r) => [
              r.column,
              fmt(r.count),
              fmt(r.mean),
              fmt(r.sd),
              fmt(r.min),
              fmt(r.median),
              fmt(r.max),
              fmt(r.skewness),
              fmt(r.kurtosis),
            ]),
          );
    case 'exploratory':
      return analysis.strongestCorrelations.length === 0
        ? 'No pair of numeric columns to correlate.'
        : table(
            ['Column A', 'Column B', 'Pearson', 'Spearman'],
            analysis.strongestCorrelations.map((p) => [p.a, p.b, fmt(p.pearson), fmt(p.spearman)]),
          );
    case 'quality':
      return [
        `Completeness ${pct(analysis.score.completeness)}, uniqueness ${pct(analysis.score.uniqueness)}, columns without a high-severity alert ${pct(analysis.score.columnsWithoutHighAlerts)}.`,
        ...analysis.issues.slice(0, 30).map((i) => `- ${i.severity}: ${i.message} Fix: ${i.fix}`),
      ].join('\n');
  }
}

export interface ProfileDocumentInput {
  source: SourceResult | null;
  profiled: ProfilingResult;
  analysis: AnalysisResult;
  interpretation: string | null;
  interpretationNote: string | null;
}

/** The document's Markdown. */
export function profileDocument(input: ProfileDocumentInput): string {
  const { source, profiled, analysis } = input;
  const p = profiled.profile;
  const lines: string[] = [`# Data profile: ${profiled.datasetName}`, ''];
  if (source) {
    lines.push(
      `${source.description} Licence: ${asSentence(source.license)} Cite as: ${source.citation}`,
      '',
    );
  }
  if (profiled.cleaning) {
    lines.push(`Cleaned at the profile review: ${profiled.cleaning.notes.join(' ')}`, '');
  }
  lines.push(
    '## Overview',
    '',
    `${p.rowCount.toLocaleString('en')} rows, ${p.columnCount} columns; ${pct(p.missingCellsShare)} of cells missing; ${p.duplicateRows} duplicate rows.`,
  );
  if (p.timeSeries) {
    const ts = p.timeSeries;
    lines.push(
      `Time index ${ts.columns.join(', ')}: ${ts.frequency}, ${ts.start} to ${ts.end}, ${ts.gaps.missingPeriods} missing periods.`,
    );
  }
  lines.push('', '## Data dictionary', '');
  lines.push(
    table(
      ['Column', 'Type', 'Unit', 'Missing', 'Description'],
      dataDictionary(p, source).map((r) => [
        r.column,
        r.type,
        r.unit ?? '-',
        pct(r.missingShare),
        r.description,
      ]),
    ),
  );
  lines.push('', '## Missing-value tokens', '');
  if (p.missingTokens) {
    const found = p.columns.filter((c) => (c.missingTokens ?? []).length > 0);
    lines.push(
      `Read as missing when the file was loaded: ${p.missingTokens.recognised.map(tokenText).join(', ')}.`,
    );
    lines.push(
      found.length === 0
        ? 'None of them was found.'
        : found
            .map(
              (c) =>
                `- ${c.name}: ${(c.missingTokens ?? []).map((t) => `${tokenText(t.token)} x${t.count}`).join(', ')}`,
            )
            .join('\n'),
    );
  } else {
    lines.push(
      'Not recorded for this dataset (it was made in the app, or stored before tokens were recorded).',
    );
  }
  lines.push('', '## Alerts', '');
  lines.push(
    p.alerts.length === 0
      ? 'None.'
      : p.alerts
          .slice(0, 50)
          .map((a) => `- ${a.severity}: ${a.message}`)
          .join('\n'),
  );
  lines.push('', `## ${ANALYSIS_TYPE_LABELS[analysis.type]}`, '', analysisSection(analysis));
  lines.push('', '## Interpretation', '');
  lines.push(
    input.interpretation
      ? modelPassage('Interpretation of the computed results', input.interpretation)
      : `No interpretation: ${input.interpretationNote ?? 'none was written.'}`,
  );
  lines.push(
    '',
    '---',
    '',
    `Every number in this document was computed by the profiling engine from the stored data. ${
      input.interpretation ? `The interpretation is marked "${ORIGIN_LABELS.model}".` : ''
    }`.trim(),
    '',
  );
  return lines.join('\n');
}

/**
 * The origin of each part: the profile, the data dictionary and the analysis computed (backed
 * by the computations' ids), the interpretation written by the model.
 */
export function profileProvenanceItems(
  computations: { profile: string; analysis: string },
  analysisType: AnalysisResult['type'],
  hasInterpretation: boolean,
): ProvenanceItem[] {
  return [
    { key: 'table:profile', origin: 'computed', ref: computations.profile },
    { key: 'table:data-dictionary', origin: 'computed', ref: computations.profile },
    { key: `table:${analysisType}-analysis`, origin: 'computed', ref: computations.analysis },
    ...(hasInterpretation ? [{ key: 'passage:interpretation', origin: 'model' as const }] : []),
  ];
}
