import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  ChartAggregate,
  ChartRequest,
  ChartSpec,
  DatasetProfile,
  HistogramBin,
} from '../../../common/teams/data';
import { strongestPairs, measures, isIdentifier } from './analysis';
import { familyOf } from './columns';
import { queryOne, queryRows, toNumber, type Cell } from './duckdb';
import { DataError } from './errors';
import type { ColumnInfo } from './ingest';
import { ident, literal } from './sql';
import { binExpression, histogramBins, MAX_HISTOGRAM_BINS } from './stats';
import { buildPeriodTable, dateLabel, findTimeIndex, periodFrequency } from './timeseries';

/**
 * Chart data for the Visualizations tab and the Data Explorer: every point is a row, a count
 * or an aggregate of the stored dataset. Large tables are sampled (scatter, repeatably) or
 * averaged into buckets (lines), and the description says so.
 */

export const MAX_LINE_POINTS = 1000;
export const SCATTER_SAMPLE = 2000;
export const MAX_BAR_CATEGORIES = 30;
export const MAX_PIE_SLICES = 10;
export const AUTO_HISTOGRAMS = 6;
export const AUTO_LINE_SERIES = 4;
export const MAX_HEATMAP_COLUMNS = 15;
export const NETWORK_THRESHOLD = 0.5;

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));
const label = (v: Cell | undefined): string =>
  v === null || v === undefined
    ? '(missing)'
    : typeof v === 'object'
      ? JSON.stringify(v)
      : String(v);

/** The charts a profile calls for: missingness, distributions, correlations, time, categories. */
export async function autoCharts(
  conn: DuckDBConnection,
  profile: DatasetProfile,
): Promise<ChartSpec[]> {
  const charts: ChartSpec[] = [];
  charts.push({
    id: 'missingness',
    kind: 'bar',
    title: 'Missing values by column',
    description:
      profile.missingCells === 0
        ? `No missing values in ${profile.rowCount} rows and ${profile.columnCount} columns.`
        : `${profile.missingCells} of ${profile.rowCount * profile.columnCount} cells are missing ` +
          `(${(profile.missingCellsShare * 100).toFixed(1)}%). Bars show each column's missing share in percent.`,
    xLabel: 'Column',
    categories: profile.columns.map((c) => c.name),
    series: [{ name: 'Missing (%)', values: profile.columns.map((c) => c.missingShare * 100) }],
  });

  const timeChart = await periodLine(conn, profile);
  if (timeChart) charts.push(timeChart);

  for (const c of measures(profile)
    .filter((x) => x.distinct > 1)
    .slice(0, AUTO_HISTOGRAMS)) {
    const n = c.numeric!;
    charts.push({
      id: `histogram-${c.name}`,
      kind: 'histogram',
      title: `Distribution of ${c.name}`,
      description:
        `${c.count} values from ${fmt(n.min)} to ${fmt(n.max)}; mean ${fmt(n.mean)}, median ` +
        `${fmt(n.quantiles.p50)}, skewness ${n.skewness === null ? 'n/a' : n.skewness.toFixed(2)}.`,
      column: c.name,
      bins: n.histogram,
    });
  }

  const corr = profile.correlations;
  const keep = corr.columns
    .map((name, i) => ({ name, i }))
    .filter(({ name }) => {
      const c = profile.columns.find((x) => x.name === name);
      return c !== undefined && !isIdentifier(c, profile.rowCount);
    })
    .slice(0, MAX_HEATMAP_COLUMNS);
  if (keep.length >= 2) {
    charts.push({
      id: 'correlation-heatmap',
      kind: 'heatmap',
      title: 'Correlation matrix (Pearson)',
      description: `Pairwise Pearson correlations of ${keep.length} numeric columns, each pair on the rows where both are present.`,
      columns: keep.map((k) => k.name),
      values: keep.map((a) => keep.map((b) => corr.pearson[a.i]?.[b.i] ?? null)),
    });
  }

  const top = strongestPairs(profile, 20).find((p) => {
    const a = profile.columns.find((c) => c.name === p.a);
    const b = profile.columns.find((c) => c.name === p.b);
    return a && b && !isIdentifier(a, profile.rowCount) && !isIdentifier(b, profile.rowCount);
  });
  if (top && top.pearson !== null) {
    const chart = await scatter(conn, top.a, top.b);
    charts.push({
      ...chart,
      id: 'scatter-most-correlated',
      title: `${top.b} against ${top.a}`,
      description: `The most correlated pair (Pearson ${top.pearson.toFixed(3)}). ${chart.description}`,
    });
  }

  const category = profile.columns.find(
    (c) => c.kind === 'categorical' && c.distinct >= 2 && c.distinct <= MAX_BAR_CATEGORIES,
  );
  if (category) {
    charts.push({
      id: `categories-${category.name}`,
      kind: 'bar',
      title: `Most frequent values of ${category.name}`,
      description: `${category.distinct} distinct values; the ${Math.min(category.topValues.length, category.distinct)} most frequent are shown with their row counts.`,
      xLabel: category.name,
      categories: category.topValues.map((t) => label(t.value)),
      series: [{ name: 'Rows', values: category.topValues.map((t) => t.count) }],
    });
  }
  return charts;
}

/** Per-period means of the first numeric columns over the time index. */
async function periodLine(
  conn: DuckDBConnection,
  profile: DatasetProfile,
): Promise<ChartSpec | null> {
  if (!profile.timeSeries) return null;
  const index = await findTimeIndex(conn, profile.columns);
  if (!index) return null;
  const cols = measures(profile, index.columns)
    .filter((c) => c.distinct > 1)
    .slice(0, AUTO_LINE_SERIES);
  if (cols.length === 0) return null;
  await buildPeriodTable(
    conn,
    index,
    cols.map((c) => c.name),
  );
  const { frequency } = await periodFrequency(conn);
  const means = cols.map((_, i) => `avg(m${i}) AS m${i}`).join(', ');
  const rows = await queryRows(
    conn,
    `SELECT min(p)::VARCHAR AS p, ${means} FROM (SELECT *, ntile(${MAX_LINE_POINTS}) OVER (ORDER BY p) AS b FROM __periods)
     GROUP BY b ORDER BY b`,
  );
  const bucketed = profile.timeSeries.periods > MAX_LINE_POINTS;
  const panel = profile.timeSeries.rowsPerPeriod.max > 1;
  return {
    id: 'time-series',
    kind: 'line',
    title: `${cols.map((c) => c.name).join(', ')} over time`,
    description:
      `${panel ? 'Mean per period across the rows of each period' : 'Values per period'} ` +
      `(${profile.timeSeries.frequency}, ${profile.timeSeries.start} to ${profile.timeSeries.end}` +
      `${bucketed ? `, averaged into ${MAX_LINE_POINTS} buckets` : ''}).`,
    xLabel: index.columns.join(' + '),
    x: rows.map((r) => dateLabel(frequency, String(r.p))),
    series: cols.map((c, i) => ({
      name: c.name,
      values: rows.map((r) => toNumber(r[`m${i}`])),
    })),
  };
}

/** A repeatable sample of rows where both columns have values. */
async function scatter(
  conn: DuckDBConnection,
  xName: string,
  yName: string,
): Promise<Extract<ChartSpec, { kind: 'scatter' }>> {
  const x = ident(xName);
  const y = ident(yName);
  const where = `${x} IS NOT NULL AND ${y} IS NOT NULL`;
  const total =
    toNumber((await queryOne(conn, `SELECT count(*) AS n FROM src WHERE ${where}`)).n) ?? 0;
  const rows = await queryRows(
    conn,
    `SELECT ${x}::DOUBLE AS x, ${y}::DOUBLE AS y FROM (SELECT ${x}, ${y} FROM src WHERE ${where})
     USING SAMPLE reservoir(${SCATTER_SAMPLE} ROWS) REPEATABLE (42)`,
  );
  const points = rows
    .map((r) => ({ x: toNumber(r.x), y: toNumber(r.y) }))
    .filter((p): p is { x: number; y: number } => p.x !== null && p.y !== null);
  return {
    id: `scatter-${xName}-${yName}`,
    kind: 'scatter',
    title: `${yName} against ${xName}`,
    description:
      total > SCATTER_SAMPLE
        ? `A repeatable random sample of ${points.length} of the ${total} rows with both values.`
        : `All ${total} rows with both values.`,
    xLabel: xName,
    yLabel: yName,
    points,
    sampled: points.length,
    total,
  };
}

/** numpy-style histogram of one column (min(50, distinct) equal bins). */
async function histogramOf(conn: DuckDBConnection, name: string): Promise<HistogramBin[]> {
  const x = `${ident(name)}::DOUBLE`;
  const s = await queryOne(
    conn,
    `SELECT min(${x}) AS lo, max(${x}) AS hi, count(DISTINCT ${x})::DOUBLE AS d, count(${x})::DOUBLE AS n FROM src`,
  );
  const lo = toNumber(s.lo);
  const hi = toNumber(s.hi);
  const n = toNumber(s.n) ?? 0;
  if (lo === null || hi === null) return [];
  if (hi === lo) return [{ start: lo - 0.5, end: hi + 0.5, count: n }];
  const bins = Math.max(1, Math.min(MAX_HISTOGRAM_BINS, toNumber(s.d) ?? 1));
  const rows = await queryRows(
    conn,
    `SELECT ${binExpression(x, { lo, hi, bins })} AS b, count(*)::DOUBLE AS n FROM src WHERE ${x} IS NOT NULL GROUP BY 1`,
  );
  return histogramBins({ lo, hi, bins }, rows);
}

const AGG_SQL: Record<ChartAggregate, (x: string) => string> = {
  mean: (x) => `avg(${x})`,
  sum: (x) => `sum(${x})`,
  count: (x) => `count(${x})::DOUBLE`,
  min: (x) => `min(${x})`,
  max: (x) => `max(${x})`,
  median: (x) => `quantile_cont(${x}, 0.5)`,
};

/**
 * How a line chart's x values read: 'year' when every one is a whole number from 1000 to 2999
 * (drawn as 1960, never 1,960), 'number' for other numbers, else 'text'.
 */
export function xKindOf(values: (Cell | undefined)[]): 'year' | 'number' | 'text' {
  if (values.length === 0 || !values.every((v) => typeof v === 'number')) return 'text';
  return values.every((v) => Number.isInteger(v) && v >= 1000 && v <= 2999) ? 'year' : 'number';
}

/**
 * A line chart with one series per entity (a panel's country, firm, ...) of one measure: the
 * entities asked for, or those with the most values (then by name), at most maxSeries of them.
 */
async function linePerEntity(
  conn: DuckDBConnection,
  request: ChartRequest,
  x: string,
  key: string,
  ys: string[],
  entity: string,
): Promise<ChartSpec> {
  if (ys.length !== 1) {
    throw new DataError(
      'invalid_request',
      'One line per entity draws one measure: choose one numeric column (or no entity column to compare several measures).',
    );
  }
  if (entity === x) {
    throw new DataError('invalid_request', 'The entity column cannot also be the x axis.');
  }
  const yName = ys[0]!;
  const aggregate = request.aggregate ?? 'mean';
  const max = request.maxSeries ?? 12;
  const e = `${ident(entity)}::VARCHAR`;
  const v = `${ident(yName)}::DOUBLE`;
  const total =
    toNumber(
      (await queryOne(conn, `SELECT count(DISTINCT ${e}) AS n FROM src WHERE ${e} IS NOT NULL`)).n,
    ) ?? 0;
  let chosen: string[];
  if (request.entities && request.entities.length > 0) {
    const asked = request.entities;
    const found = await queryRows(
      conn,
      `SELECT DISTINCT ${e} AS e FROM src WHERE ${e} IN (${asked.map((a) => literal(a)).join(', ')})`,
    );
    const have = new Set(found.map((r) => String(r.e)));
    const unknown = asked.filter((a) => !have.has(a));
    if (unknown.length > 0) {
      throw new DataError(
        'invalid_request',
        `${entity} has no value ${unknown.map((u) => `"${u}"`).join(', ')}.`,
      );
    }
    chosen = asked;
  } else {
    chosen = (
      await queryRows(
        conn,
        `SELECT ${e} AS e FROM src WHERE ${e} IS NOT NULL GROUP BY 1 ORDER BY count(${v}) DESC, 1 LIMIT ${max}`,
      )
    ).map((r) => String(r.e));
  }
  const inList = chosen.map((c) => literal(c)).join(', ');
  const rows =
    chosen.length === 0
      ? []
      : await queryRows(
          conn,
          `WITH g AS (SELECT ${e} AS e, ${key} AS k, ${AGG_SQL[aggregate](v)} AS v FROM src
                      WHERE ${key} IS NOT NULL AND ${e} IN (${inList}) GROUP BY 1, 2),
                ks AS (SELECT k, ntile(${MAX_LINE_POINTS}) OVER (ORDER BY k) AS b FROM (SELECT DISTINCT k FROM g)),
                kb AS (SELECT b, min(k) AS k0 FROM ks GROUP BY b)
           SELECT kb.k0 AS k, g.e AS e, avg(g.v) AS v
           FROM g JOIN ks ON g.k = ks.k JOIN kb ON ks.b = kb.b GROUP BY 1, 2 ORDER BY 1`,
        );
  const xs: Cell[] = [];
  const at = new Map<string, number>();
  for (const r of rows) {
    const k = label(r.k) + (typeof r.k === 'number' ? '#n' : '#t');
    if (!at.has(k)) {
      at.set(k, xs.length);
      xs.push(r.k ?? null);
    }
  }
  const series = chosen.map((name) => ({
    name,
    values: new Array<number | null>(xs.length).fill(null),
  }));
  const index = new Map(chosen.map((c, i) => [c, i]));
  for (const r of rows) {
    const s = series[index.get(String(r.e))!]!;
    s.values[at.get(label(r.k) + (typeof r.k === 'number' ? '#n' : '#t'))!] = toNumber(r.v);
  }
  const distinctX =
    toNumber((await queryOne(conn, `SELECT count(DISTINCT ${key}) AS n FROM src`)).n) ?? 0;
  const which = request.entities && request.entities.length > 0 ? 'chosen' : 'with the most values';
  return {
    id: `line-${x}-by-${entity}`,
    kind: 'line',
    title: `${yName} by ${x}, one line per ${entity}`,
    description:
      `${aggregate} of ${yName} per value of ${x} for each ${entity}` +
      (total > chosen.length
        ? `: showing ${chosen.length} of ${total} (those ${which}).`
        : ` (${chosen.length}).`) +
      (distinctX > MAX_LINE_POINTS
        ? ` Averaged into ${MAX_LINE_POINTS} buckets of ${distinctX} values of ${x}.`
        : ''),
    xLabel: x,
    x: xs.map((k) => (typeof k === 'number' ? k : label(k))),
    xKind: xKindOf(xs),
    series,
    seriesBy: { column: entity, total },
  };
}

/** A chart the researcher asked for in the Data Explorer. */
export async function requestedChart(
  conn: DuckDBConnection,
  columns: ColumnInfo[],
  request: Required<Pick<ChartRequest, 'type'>> & ChartRequest,
): Promise<ChartSpec> {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const need = (name: string | undefined, role: string, numeric = false): string => {
    if (!name)
      throw new DataError(
        'invalid_request',
        `Choose the ${role} column for a ${request.type} chart.`,
      );
    const c = byName.get(name);
    if (!c) throw new DataError('unknown_column', `The dataset has no column "${name}".`);
    if (numeric && familyOf(c.type) !== 'numeric') {
      throw new DataError(
        'invalid_request',
        `${name} is not numeric; a ${request.type} chart needs numbers for the ${role}.`,
      );
    }
    return name;
  };
  const y = request.y ?? [];
  const aggregate = request.aggregate ?? 'mean';
  switch (request.type) {
    case 'histogram': {
      const x = need(request.x, 'x', true);
      const bins = await histogramOf(conn, x);
      return {
        id: `histogram-${x}`,
        kind: 'histogram',
        title: `Distribution of ${x}`,
        description: `${bins.reduce((s, b) => s + b.count, 0)} values in ${bins.length} equal-width bins.`,
        column: x,
        bins,
      };
    }
    case 'scatter': {
      return scatter(conn, need(request.x, 'x', true), need(y[0], 'y', true));
    }
    case 'line': {
      const x = need(request.x, 'x');
      if (y.length === 0) need(undefined, 'y');
      const ys = y.slice(0, 5).map((n) => need(n, 'y', true));
      const key = familyOf(byName.get(x)!.type) === 'numeric' ? `${ident(x)}::DOUBLE` : ident(x);
      if (request.seriesBy !== undefined) {
        return linePerEntity(conn, request, x, key, ys, need(request.seriesBy, 'series'));
      }
      const aggs = ys
        .map((n, i) => `${AGG_SQL[aggregate](`${ident(n)}::DOUBLE`)} AS v${i}`)
        .join(', ');
      const total =
        toNumber((await queryOne(conn, `SELECT count(DISTINCT ${key}) AS n FROM src`)).n) ?? 0;
      const rows = await queryRows(
        conn,
        `WITH g AS (SELECT ${key} AS k, ${aggs} FROM src WHERE ${key} IS NOT NULL GROUP BY 1),
              b AS (SELECT *, ntile(${MAX_LINE_POINTS}) OVER (ORDER BY k) AS b FROM g)
         SELECT min(k) AS k, ${ys.map((_, i) => `avg(v${i}) AS v${i}`).join(', ')} FROM b GROUP BY b ORDER BY b`,
      );
      return {
        id: `line-${x}`,
        kind: 'line',
        title: `${ys.join(', ')} by ${x}`,
        description:
          `${aggregate} of each series per value of ${x}` +
          (total > MAX_LINE_POINTS
            ? `, averaged into ${MAX_LINE_POINTS} buckets of ${total} values.`
            : '.'),
        xLabel: x,
        x: rows.map((r) => (typeof r.k === 'number' ? r.k : label(r.k))),
        xKind: xKindOf(rows.map((r) => r.k)),
        series: ys.map((n, i) => ({ name: n, values: rows.map((r) => toNumber(r[`v${i}`])) })),
      };
    }
    case 'bar':
    case 'pie': {
      const x = need(request.x, 'category');
      const yName = y[0] ? need(y[0], 'value', true) : null;
      if (request.type === 'pie' && yName && aggregate !== 'sum' && aggregate !== 'count') {
        throw new DataError(
          'invalid_request',
          'A pie chart shows parts of a whole: use count or sum.',
        );
      }
      const value = yName ? AGG_SQL[aggregate](`${ident(yName)}::DOUBLE`) : 'count(*)::DOUBLE';
      const limit = request.type === 'pie' ? MAX_PIE_SLICES - 1 : MAX_BAR_CATEGORIES;
      // Categories by row count; for a pie the rest is summed into one "Other" slice.
      const rows = await queryRows(
        conn,
        `WITH g AS (SELECT ${ident(x)}::VARCHAR AS k, ${value} AS v, count(*) AS n FROM src GROUP BY 1),
              r AS (SELECT *, row_number() OVER (ORDER BY n DESC, k) AS rn FROM g)
         SELECT k, v, rn, false AS other FROM r WHERE rn <= ${limit}
         UNION ALL SELECT NULL, sum(v), ${limit + 1}, true FROM r WHERE rn > ${limit} HAVING count(*) > 0
         ORDER BY rn`,
      );
      const shown = rows.filter((r) => r.other !== true);
      const more = rows.length > shown.length;
      const what = yName ? `${aggregate} of ${yName}` : 'Rows';
      if (request.type === 'bar') {
        return {
          id: `bar-${x}`,
          kind: 'bar',
          title: `${what} by ${x}`,
          description: `The ${shown.length} most frequent values of ${x}${more ? ' (more exist)' : ''}.`,
          xLabel: x,
          categories: shown.map((r) => label(r.k)),
          series: [{ name: what, values: shown.map((r) => toNumber(r.v)) }],
        };
      }
      return {
        id: `pie-${x}`,
        kind: 'pie',
        title: `Share of ${what.toLowerCase()} by ${x}`,
        description: `${rows.length} slices${more ? `; values beyond the ${limit} most frequent are summed as "Other"` : ''}.`,
        slices: rows.map((r) => ({
          label: r.other === true ? 'Other' : label(r.k),
          value: toNumber(r.v) ?? 0,
        })),
      };
    }
    case 'heatmap':
    case 'network': {
      if (y.length < 2) {
        throw new DataError(
          'invalid_request',
          `Choose at least two numeric columns for a ${request.type} chart.`,
        );
      }
      const names = y.map((n) => need(n, 'value', true));
      const matrix = await pearsonMatrix(conn, names);
      if (request.type === 'heatmap') {
        return {
          id: 'heatmap',
          kind: 'heatmap',
          title: 'Correlation matrix (Pearson)',
          description: `Pairwise Pearson correlations of ${names.length} columns.`,
          columns: names,
          values: matrix,
        };
      }
      const edges = [];
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
          const r = matrix[i]![j];
          if (r !== null && r !== undefined && Math.abs(r) >= NETWORK_THRESHOLD) {
            edges.push({ source: names[i]!, target: names[j]!, weight: r });
          }
        }
      }
      return {
        id: 'network',
        kind: 'network',
        title: 'Correlation network',
        description: `Columns linked where |Pearson r| >= ${NETWORK_THRESHOLD}; ${edges.length} links among ${names.length} columns.`,
        nodes: names.map((id) => ({ id })),
        edges,
      };
    }
  }
}

async function pearsonMatrix(
  conn: DuckDBConnection,
  names: string[],
): Promise<(number | null)[][]> {
  const k = names.length;
  const parts: string[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      parts.push(`corr(${ident(names[i]!)}::DOUBLE, ${ident(names[j]!)}::DOUBLE) AS p${i}_${j}`);
    }
  }
  const row = await queryOne(conn, `SELECT ${parts.join(', ')} FROM src`);
  return names.map((_, i) =>
    names.map((__, j) => {
      if (i === j) return 1;
      const [a, b] = i < j ? [i, j] : [j, i];
      return toNumber(row[`p${a}_${b}`]);
    }),
  );
}
