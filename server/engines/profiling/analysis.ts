import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  Alert,
  AnalysisResult,
  AnalysisType,
  ColumnProfile,
  DatasetProfile,
  SummaryRow,
} from '../../../common/teams/data';
import { queryOne, queryRows, toNumber, type Cell } from './duckdb';
import { ident } from './sql';
import {
  buildPeriodTable,
  findTimeIndex,
  periodFrequency,
  periodIndexExpr,
  dateLabel,
} from './timeseries';

/**
 * The Data team's four analysis types (profile, descriptive, exploratory, quality), computed from
 * the profile and, where the profile does not hold the numbers (groups, trends), by further
 * DuckDB queries.
 */

export const MAX_GROUPS = 20;
export const MAX_GROUP_COLUMNS = 8;
export const MAX_GROUP_DISTINCT = 50;
export const MAX_TREND_COLUMNS = 8;

const ID_NAMES = /^(id|rownames|row|row_?id|index|unnamed.*|\.\.\.1)$|_id$/i;

/** A row identifier: a different value in every row and a name that says so. */
export const isIdentifier = (c: ColumnProfile, rowCount: number) =>
  c.distinct === rowCount && rowCount > 2 && ID_NAMES.test(c.name.trim());

/** Numeric columns worth describing: numeric kind, not identifiers, not in `exclude`. */
export function measures(profile: DatasetProfile, exclude: string[] = []): ColumnProfile[] {
  return profile.columns.filter(
    (c) =>
      c.kind === 'numeric' &&
      c.numeric !== undefined &&
      !exclude.includes(c.name) &&
      !isIdentifier(c, profile.rowCount),
  );
}

export async function analyze(
  conn: DuckDBConnection,
  profile: DatasetProfile,
  type: AnalysisType,
): Promise<AnalysisResult> {
  switch (type) {
    case 'profile':
      return profileAnalysis(profile);
    case 'descriptive':
      return descriptive(conn, profile);
    case 'exploratory':
      return exploratory(conn, profile);
    case 'quality':
      return quality(profile);
  }
}

function profileAnalysis(profile: DatasetProfile): AnalysisResult {
  return {
    type: 'profile',
    overview: {
      rowCount: profile.rowCount,
      columnCount: profile.columnCount,
      missingCells: profile.missingCells,
      missingCellsShare: profile.missingCellsShare,
      duplicateRows: profile.duplicateRows,
      kinds: profile.kinds,
      completeness: 1 - profile.missingCellsShare,
    },
    columns: profile.columns.map((c) => ({
      column: c.name,
      kind: c.kind,
      storageType: c.storageType,
      count: c.count,
      missing: c.missing,
      missingShare: c.missingShare,
      distinct: c.distinct,
    })),
  };
}

function summaryRow(c: ColumnProfile): SummaryRow {
  const n = c.numeric!;
  return {
    column: c.name,
    count: c.count,
    mean: n.mean,
    sd: n.sd,
    min: n.min,
    p25: n.quantiles.p25,
    median: n.quantiles.p50,
    p75: n.quantiles.p75,
    max: n.max,
    skewness: n.skewness,
    kurtosis: n.kurtosis,
  };
}

/** The grouping column: the categorical column with the fewest (but at least two) values. */
export function groupColumn(profile: DatasetProfile): ColumnProfile | null {
  const candidates = profile.columns.filter(
    (c) =>
      (c.kind === 'categorical' || c.kind === 'boolean') &&
      c.distinct >= 2 &&
      c.distinct <= MAX_GROUP_DISTINCT,
  );
  if (candidates.length === 0) return null;
  return candidates.reduce((best, c) => (c.distinct < best.distinct ? c : best));
}

async function descriptive(
  conn: DuckDBConnection,
  profile: DatasetProfile,
): Promise<AnalysisResult> {
  const numeric = measures(profile);
  const categorical = profile.columns
    .filter((c) => c.kind === 'categorical' || c.kind === 'boolean')
    .map((c) => ({ column: c.name, distinct: c.distinct, top: c.topValues }));
  const group = groupColumn(profile);
  let byGroup = null;
  const stats = numeric.filter((c) => c.name !== group?.name).slice(0, MAX_GROUP_COLUMNS);
  if (group && stats.length > 0) {
    const rows = await queryRows(conn, byGroupQuery(group, stats));
    byGroup = {
      groupColumn: group.name,
      groups: rows.map((r) => ({
        group: scalarCell(r.g),
        count: toNumber(r.rows) ?? 0,
        stats: stats.map((c, i) => ({
          column: c.name,
          count: toNumber(r[`n${i}`]) ?? 0,
          mean: toNumber(r[`mean${i}`]),
          sd: toNumber(r[`sd${i}`]),
          min: toNumber(r[`min${i}`]),
          median: toNumber(r[`med${i}`]),
          max: toNumber(r[`max${i}`]),
        })),
      })),
      truncated: group.distinct > MAX_GROUPS,
    };
  }
  return { type: 'descriptive', numeric: numeric.map(summaryRow), categorical, byGroup };
}

/**
 * The statistics of each measure in each of the MAX_GROUPS largest groups. The mean and the
 * sample standard deviation are exact to rounding however large the mean is against the spread
 * (DuckDB's stddev_samp was up to 2.5e-5 off on such groups): each group's values are shifted by
 * their minimum (x - min is exact when x lies within a factor of two of it), the shifted values'
 * mean comes from a compensated sum, and the standard deviation from the sum of squared
 * deviations from that mean, a second pass, as the profile's moments are computed.
 */
function byGroupQuery(group: ColumnProfile, stats: ColumnProfile[]): string {
  const key = `${ident(group.name)}${group.kind === 'boolean' && group.numeric ? '::DOUBLE' : ''}`;
  const x = (i: number) => `x${i}`;
  const values = stats.map((c, i) => `${ident(c.name)}::DOUBLE AS ${x(i)}`).join(', ');
  const first = stats.flatMap((_, i) => [
    `count(${x(i)})::DOUBLE AS n${i}`,
    `min(${x(i)}) AS min${i}`,
    `quantile_cont(${x(i)}, 0.5) AS med${i}`,
    `max(${x(i)}) AS max${i}`,
  ]);
  const shifted = stats.map(
    (_, i) => `kahan_sum(${x(i)} - min${i}) / nullif(any_value(n${i}), 0) AS shifted${i}`,
  );
  const carried = ['rows', ...stats.flatMap((_, i) => [`n${i}`, `min${i}`, `med${i}`, `max${i}`])];
  const finished = stats.flatMap((_, i) => [
    `any_value(min${i} + shifted${i}) AS mean${i}`,
    `CASE WHEN any_value(n${i}) > 1 THEN sqrt(kahan_sum(((${x(i)} - min${i}) - shifted${i}) ** 2) / (any_value(n${i}) - 1)) END AS sd${i}`,
  ]);
  return `WITH v AS (SELECT ${key} AS g, ${values} FROM src WHERE ${ident(group.name)} IS NOT NULL),
    top AS (SELECT g, count(*)::DOUBLE AS rows, ${first.join(', ')} FROM v GROUP BY g
            ORDER BY rows DESC, g LIMIT ${MAX_GROUPS}),
    centre AS (SELECT g, ${shifted.join(', ')} FROM v JOIN top USING (g) GROUP BY g)
    SELECT g, ${carried.map((c) => `any_value(${c}) AS ${c}`).join(', ')}, ${finished.join(', ')}
    FROM v JOIN top USING (g) JOIN centre USING (g) GROUP BY g ORDER BY rows DESC, g`;
}

function scalarCell(v: Cell | undefined): string | number | boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') return JSON.stringify(v);
  return v;
}

export function shapeOf(skewness: number | null, distinct: number) {
  if (distinct <= 1) return 'constant' as const;
  if (skewness === null || Math.abs(skewness) < 0.5) return 'symmetric' as const;
  return skewness > 0 ? ('right-skewed' as const) : ('left-skewed' as const);
}

/** Column pairs by the strength of their correlation, strongest first. */
export function strongestPairs(profile: DatasetProfile, limit = 10) {
  const { columns, pearson, spearman } = profile.correlations;
  const pairs = [];
  for (let i = 0; i < columns.length; i++) {
    for (let j = i + 1; j < columns.length; j++) {
      const p = pearson[i]?.[j] ?? null;
      const s = spearman[i]?.[j] ?? null;
      if (p === null && s === null) continue;
      pairs.push({ a: columns[i]!, b: columns[j]!, pearson: p, spearman: s });
    }
  }
  const strength = (x: { pearson: number | null; spearman: number | null }) =>
    Math.max(Math.abs(x.pearson ?? 0), Math.abs(x.spearman ?? 0));
  return pairs.sort((x, y) => strength(y) - strength(x)).slice(0, limit);
}

async function exploratory(
  conn: DuckDBConnection,
  profile: DatasetProfile,
): Promise<AnalysisResult> {
  const numeric = measures(profile);
  const distributions = numeric.map((c) => ({
    column: c.name,
    shape: shapeOf(c.numeric!.skewness, c.distinct),
    skewness: c.numeric!.skewness,
    kurtosis: c.numeric!.kurtosis,
    outliersIqr: c.numeric!.outliers.iqr,
    outliersZScore: c.numeric!.outliers.zScore,
  }));
  return {
    type: 'exploratory',
    distributions,
    strongestCorrelations: strongestPairs(profile),
    trends: await trends(conn, profile),
  };
}

/** Per-period means of the measures: first and last value, change, OLS slope, direction. */
async function trends(conn: DuckDBConnection, profile: DatasetProfile) {
  const ts = profile.timeSeries;
  if (!ts) return null;
  const index = await findTimeIndex(conn, profile.columns);
  if (!index) return null;
  const cols = measures(profile, index.columns)
    .filter((c) => c.distinct > 1)
    .slice(0, MAX_TREND_COLUMNS);
  if (cols.length === 0) return null;
  await buildPeriodTable(
    conn,
    index,
    cols.map((c) => c.name),
  );
  const { frequency, startEpochDay } = await periodFrequency(conn);
  const idx = periodIndexExpr(frequency, 'p', startEpochDay);
  const out = [];
  for (const [i, c] of cols.entries()) {
    const m = `m${i}`;
    const row = await queryOne(
      conn,
      `SELECT arg_min(p, p)::VARCHAR AS p0, arg_min(${m}, p) AS v0, arg_max(p, p)::VARCHAR AS p1,
              arg_max(${m}, p) AS v1, regr_slope(${m}, ${idx}) AS slope, avg(${m}) AS mean,
              count(*)::DOUBLE AS n
       FROM __periods WHERE ${m} IS NOT NULL`,
    );
    const v0 = toNumber(row.v0);
    const v1 = toNumber(row.v1);
    if (v0 === null || v1 === null) continue;
    const slope = toNumber(row.slope);
    const mean = toNumber(row.mean) ?? 0;
    const n = toNumber(row.n) ?? 0;
    // Flat: the fitted change over the whole span is under 1% of the mean level.
    const fitted = slope === null ? 0 : slope * Math.max(0, n - 1);
    const direction =
      slope === null || Math.abs(fitted) < 0.01 * Math.abs(mean) || slope === 0
        ? ('flat' as const)
        : slope > 0
          ? ('rising' as const)
          : ('falling' as const);
    out.push({
      column: c.name,
      first: { period: dateLabel(frequency, String(row.p0)), value: v0 },
      last: { period: dateLabel(frequency, String(row.p1)), value: v1 },
      change: v1 - v0,
      pctChange: v0 !== 0 ? (v1 - v0) / Math.abs(v0) : null,
      slopePerPeriod: slope,
      direction,
      lag1Autocorrelation: ts.autocorrelation.find((a) => a.column === c.name)?.lags[0] ?? null,
    });
  }
  return { index: index.columns.join(' + '), frequency, columns: out };
}

const FIXES: Record<Alert['type'], (a: Alert, profile: DatasetProfile) => string> = {
  empty: (a) => `Drop ${a.columns[0]}: it holds no data.`,
  missing: (a, profile) => {
    const c = profile.columns.find((x) => x.name === a.columns[0]);
    const how =
      c?.kind === 'numeric'
        ? 'impute it (mean or median, or KNN from the other columns)'
        : 'impute it with the most frequent value';
    return a.severity === 'high'
      ? `More than half of ${a.columns[0]} is missing: drop the column, or ${how} only if the gaps are random.`
      : `Either ${how}, or drop the rows where it is missing; check first whether the gaps follow a pattern.`;
  },
  constant: (a) => `Drop ${a.columns[0]}: a constant carries no information for analysis.`,
  high_cardinality: (a) =>
    `Group the rare values of ${a.columns[0]} into "Other", or treat it as an identifier rather than a category.`,
  unique: (a) => `Use ${a.columns[0]} as a row identifier and leave it out of statistics.`,
  skewed: (a, profile) => {
    const c = profile.columns.find((x) => x.name === a.columns[0]);
    const min = c?.numeric?.min ?? 0;
    return min > 0
      ? `Use log(${a.columns[0]}) (Feature Engineering: log) before linear models or mean comparisons.`
      : min >= 0
        ? `Use sqrt(${a.columns[0]}) (it has zeros, so log is undefined there) or a rank-based method.`
        : `Use a rank-based (Spearman) method or standardize ${a.columns[0]}; it has negative values, so log does not apply.`;
  },
  high_correlation: (a) =>
    `Keep one of ${a.columns[0]} and ${a.columns[1]} in a regression (multicollinearity), or combine them into one index.`,
  duplicates: (a) =>
    `Drop the ${a.value} duplicate rows (the cleaning step at the checkpoint), unless repeated observations are expected.`,
  zeros: (a) =>
    `Check whether a zero in ${a.columns[0]} means "none" or "not recorded"; recode the latter as missing.`,
  outliers: (a) =>
    `Inspect the flagged values of ${a.columns[0]}; if they are errors, remove them (IQR or z-score rule at the checkpoint), otherwise keep them and prefer medians.`,
};

function quality(profile: DatasetProfile): AnalysisResult {
  const highColumns = new Set(
    profile.alerts.filter((a) => a.severity === 'high').flatMap((a) => a.columns),
  );
  return {
    type: 'quality',
    score: {
      completeness: 1 - profile.missingCellsShare,
      uniqueness: 1 - profile.duplicateRowsShare,
      columnsWithoutHighAlerts:
        profile.columnCount > 0 ? 1 - highColumns.size / profile.columnCount : 1,
    },
    issues: profile.alerts.map((a) => ({ ...a, fix: FIXES[a.type](a, profile) })),
  };
}
