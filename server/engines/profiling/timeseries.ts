import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnProfile, Frequency, TimeSeriesProfile } from '../../../common/teams/data';
import { queryOne, queryRows, toNumber } from './duckdb';
import { familyOf } from './columns';
import { ident, literal } from './sql';

/**
 * The time dimension of a table: which column(s) hold the period, its frequency, the periods
 * missing between the first and the last, and the autocorrelation of each numeric column's
 * per-period mean. Panels (several rows per period, e.g. countries by year) are averaged per
 * period first.
 */

export interface TimeIndex {
  columns: string[];
  source: TimeSeriesProfile['source'];
  /** SQL giving the period's first day as a DATE (NULL where the row has no period). */
  periodExpr: string;
}

const YEAR_NAMES = /^(year|yr|years|jahr|annee|année|anio|año|time_period|period)$/i;
const QUARTER_NAMES = /^(quarter|qtr|q)$/i;
const MONTH_NAMES = /^(month|mon|mo|m)$/i;

const TEXT_PATTERNS: { re: RegExp; sql: (t: string) => string; sqlTest: string }[] = [
  {
    // 2020Q1, 2020-Q1, 2020 Q1 (IMF and FRED spellings)
    re: /^\d{4}[-_ ]?[Qq][1-4]$/,
    sqlTest: '^\\d{4}[-_ ]?[Qq][1-4]$',
    sql: (t) => `make_date(left(${t}, 4)::INT, (right(${t}, 1)::INT - 1) * 3 + 1, 1)`,
  },
  {
    // 2020-01, 2020M01, 2020-M01
    re: /^\d{4}-?M?(0[1-9]|1[0-2])$/,
    sqlTest: '^\\d{4}-?M?(0[1-9]|1[0-2])$',
    sql: (t) => `make_date(left(${t}, 4)::INT, right(${t}, 2)::INT, 1)`,
  },
  {
    // 1972 (an annual period written as text, as SDMX does)
    re: /^\d{4}$/,
    sqlTest: '^\\d{4}$',
    sql: (t) => `make_date(${t}::INT, 1, 1)`,
  },
];

const isWholeInRange = (c: ColumnProfile, lo: number, hi: number) =>
  c.numeric !== undefined &&
  c.numeric.min >= lo &&
  c.numeric.max <= hi &&
  c.topValues.every((t) => typeof t.value === 'number' && Number.isInteger(t.value));

/** Finds the table's time index: a date column, a year (with quarter or month) or period text. */
export async function findTimeIndex(
  conn: DuckDBConnection,
  columns: ColumnProfile[],
): Promise<TimeIndex | null> {
  const date = columns.find((c) => c.kind === 'datetime' && c.count > 0);
  if (date) {
    return {
      columns: [date.name],
      source: 'date',
      periodExpr: `CAST(${ident(date.name)} AS DATE)`,
    };
  }
  const year = columns.find((c) => YEAR_NAMES.test(c.name.trim()) && isWholeInRange(c, 1000, 3000));
  if (year) {
    const y = `${ident(year.name)}::INT`;
    const quarter = columns.find(
      (c) => QUARTER_NAMES.test(c.name.trim()) && isWholeInRange(c, 1, 4),
    );
    if (quarter) {
      const q = `${ident(quarter.name)}::INT`;
      return {
        columns: [year.name, quarter.name],
        source: 'year_quarter',
        periodExpr: `make_date(${y}, (${q} - 1) * 3 + 1, 1)`,
      };
    }
    const month = columns.find((c) => MONTH_NAMES.test(c.name.trim()) && isWholeInRange(c, 1, 12));
    if (month) {
      return {
        columns: [year.name, month.name],
        source: 'year_month',
        periodExpr: `make_date(${y}, ${ident(month.name)}::INT, 1)`,
      };
    }
    return { columns: [year.name], source: 'year', periodExpr: `make_date(${y}, 1, 1)` };
  }
  for (const c of columns) {
    if (c.kind !== 'categorical' || c.count === 0) continue;
    const first = c.topValues[0]?.value;
    if (typeof first !== 'string') continue;
    const pattern = TEXT_PATTERNS.find((p) => p.re.test(first.trim()));
    if (!pattern) continue;
    // Every value must follow the pattern, not just the most frequent one.
    const t = `trim(${ident(c.name)}::VARCHAR)`;
    const row = await queryOne(
      conn,
      `SELECT count_if(NOT regexp_full_match(${t}, ${literal(pattern.sqlTest)}))::DOUBLE AS bad FROM src WHERE ${ident(c.name)} IS NOT NULL`,
    );
    if (toNumber(row.bad) !== 0) continue;
    return {
      columns: [c.name],
      source: 'period_text',
      periodExpr: `CASE WHEN ${ident(c.name)} IS NULL THEN NULL ELSE ${pattern.sql(t)} END`,
    };
  }
  return null;
}

/** The frequency a typical step between consecutive periods (in days) stands for. */
export function frequencyFromStep(days: number | null): Frequency {
  if (days === null) return 'irregular';
  if (days === 1) return 'daily';
  if (days === 7) return 'weekly';
  if (days >= 28 && days <= 31) return 'monthly';
  if (days >= 89 && days <= 92) return 'quarterly';
  if (days === 365 || days === 366) return 'yearly';
  return 'irregular';
}

/** An integer that grows by one per period at this frequency (SQL over the DATE `p`). */
export function periodIndexExpr(frequency: Frequency, p: string, startEpochDay = 0): string {
  switch (frequency) {
    case 'daily':
      return `date_diff('day', DATE '1970-01-01', ${p})`;
    case 'weekly':
      return `(date_diff('day', DATE '1970-01-01', ${p}) - ${startEpochDay}) // 7`;
    case 'monthly':
      return `(year(${p}) * 12 + month(${p}) - 1)`;
    case 'quarterly':
      return `(year(${p}) * 4 + quarter(${p}) - 1)`;
    case 'yearly':
      return `year(${p})`;
    default:
      return `date_diff('day', DATE '1970-01-01', ${p})`;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayLabel = (epochDay: number) => new Date(epochDay * 86_400_000).toISOString().slice(0, 10);

/** A period index (see periodIndexExpr) as a label: 2020-01-31, 2020-01, 2020Q1, 2020. */
export function periodLabel(frequency: Frequency, index: number, startEpochDay = 0): string {
  switch (frequency) {
    case 'monthly':
      return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
    case 'quarterly':
      return `${Math.floor(index / 4)}Q${(index % 4) + 1}`;
    case 'yearly':
      return String(index);
    case 'weekly':
      return dayLabel(startEpochDay + index * 7);
    default:
      return dayLabel(index);
  }
}

/** A date as the label of its period at this frequency. */
export function dateLabel(frequency: Frequency, isoDate: string): string {
  const [y, m] = isoDate.split('-').map(Number) as [number, number];
  if (frequency === 'monthly') return `${y}-${pad(m)}`;
  if (frequency === 'quarterly') return `${y}Q${Math.floor((m - 1) / 3) + 1}`;
  if (frequency === 'yearly') return String(y);
  return isoDate.slice(0, 10);
}

const LAGS: Record<Frequency, number> = {
  daily: 7,
  weekly: 8,
  monthly: 12,
  quarterly: 8,
  yearly: 5,
  irregular: 5,
};
export const MAX_ACF_COLUMNS = 10;
const EARLY_ACF_COLUMNS = MAX_ACF_COLUMNS + 10;
const MAX_GAP_RUNS = 20;

/**
 * Builds the connection-private table `__periods` (p DATE, n rows, m0..mk per-period means of
 * `numeric`) that the time-series profile, trends and line charts read.
 */
export async function buildPeriodTable(
  conn: DuckDBConnection,
  index: TimeIndex,
  numeric: string[],
): Promise<void> {
  const means = numeric.map((name, i) => `avg(${ident(name)}::DOUBLE) AS m${i}`);
  await conn.run('DROP TABLE IF EXISTS __periods');
  await conn.run(
    `CREATE TEMP TABLE __periods AS SELECT ${index.periodExpr} AS p, count(*)::DOUBLE AS n` +
      `${means.length > 0 ? ', ' + means.join(', ') : ''} FROM src WHERE ${index.periodExpr} IS NOT NULL GROUP BY 1`,
  );
}

/** The frequency of `__periods` and the epoch day of its first period. */
export async function periodFrequency(
  conn: DuckDBConnection,
): Promise<{ frequency: Frequency; startEpochDay: number }> {
  const step = await queryRows(
    conn,
    `SELECT d::DOUBLE AS d, count(*) AS c FROM (SELECT date_diff('day', lag(p) OVER (ORDER BY p), p) AS d FROM __periods)
     WHERE d IS NOT NULL GROUP BY d ORDER BY c DESC, d LIMIT 1`,
  );
  const start = await queryOne(
    conn,
    `SELECT date_diff('day', DATE '1970-01-01', min(p))::DOUBLE AS s FROM __periods`,
  );
  return {
    frequency: frequencyFromStep(toNumber(step[0]?.d)),
    startEpochDay: toNumber(start.s) ?? 0,
  };
}

/**
 * Sample autocorrelation at lags 1..lagsFor(summary) of the first `count` per-period means
 * `m<i>` of `__periods` (statsmodels' acf: deviations from the series mean, each lag's sum over
 * the full-series sum of squares), every series in one query: one sort of the periods serves
 * them all. A series with empty periods is read without them (the k-th next period that has a
 * value).
 */
async function autocorrelations(
  conn: DuckDBConnection,
  summary: PeriodSummary,
  count: number,
): Promise<(number | null)[][]> {
  const series = Array.from({ length: count }, (_, m) => ({ m, gaps: summary.gapsIn[m] ?? true }));
  const lags = lagsFor(summary);
  if (series.length === 0 || lags === 0) return series.map(() => []);
  const mean = series.map(({ m }) => `avg(m${m}) AS a${m}`);
  const dev = series.map(({ m }) => `m${m} - a${m} AS d${m}`);
  const leads = series.flatMap(({ m, gaps }) =>
    Array.from(
      { length: lags },
      (_, i) => `lead(d${m}, ${i + 1}${gaps ? ' IGNORE NULLS' : ''}) OVER w AS l${m}_${i + 1}`,
    ),
  );
  const sums = series.flatMap(({ m }) => [
    `sum(d${m} * d${m}) AS den${m}`,
    ...Array.from({ length: lags }, (_, i) => `sum(d${m} * l${m}_${i + 1}) AS s${m}_${i + 1}`),
  ]);
  const row = await queryOne(
    conn,
    `WITH mu AS (SELECT ${mean.join(', ')} FROM __periods),
          d AS (SELECT p, ${dev.join(', ')} FROM __periods, mu)
     SELECT ${sums.join(', ')}
     FROM (SELECT ${series.map(({ m }) => `d${m}`).join(', ')}, ${leads.join(', ')} FROM d WINDOW w AS (ORDER BY p))`,
  );
  return series.map(({ m }) => {
    const den = toNumber(row[`den${m}`]);
    return Array.from({ length: lags }, (_, i) => {
      const s = toNumber(row[`s${m}_${i + 1}`]);
      return den && den > 0 && s !== null ? s / den : null;
    });
  });
}

/** How many lags of autocorrelation a series of this frequency and length gets. */
function lagsFor(summary: PeriodSummary): number {
  return Math.max(0, Math.min(LAGS[summary.frequency], summary.periods - 2));
}

/** What the time series profile reads from `__periods` whichever numeric columns it shows. */
interface PeriodSummary {
  periods: number;
  start: string;
  finish: string;
  nmin: number;
  nmax: number;
  frequency: Frequency;
  gaps: TimeSeriesProfile['gaps'];
  /** Per mean column m<i>: whether some period has no value. */
  gapsIn: boolean[];
}

async function periodSummary(conn: DuckDBConnection, means: number): Promise<PeriodSummary | null> {
  const counts = Array.from({ length: means }, (_, i) => `count(m${i})::DOUBLE AS c${i}`);
  const summary = await queryOne(
    conn,
    `SELECT count(*)::DOUBLE AS periods, min(p)::VARCHAR AS start, max(p)::VARCHAR AS finish,
            min(n) AS nmin, max(n) AS nmax${counts.map((c) => `, ${c}`).join('')} FROM __periods`,
  );
  const periods = toNumber(summary.periods) ?? 0;
  if (periods === 0) return null;
  const { frequency, startEpochDay } = await periodFrequency(conn);
  return {
    periods,
    start: String(summary.start),
    finish: String(summary.finish),
    nmin: toNumber(summary.nmin) ?? 0,
    nmax: toNumber(summary.nmax) ?? 0,
    frequency,
    gaps: await periodGaps(conn, frequency, startEpochDay),
    gapsIn: Array.from({ length: means }, (_, i) => toNumber(summary[`c${i}`]) !== periods),
  };
}

/** The most columns whose per-period means are taken before the statistics say which count. */
const EARLY_MEAN_COLUMNS = 40;

/**
 * The part of the time series profile that needs no column statistics, started beside them
 * on the caller's (otherwise idle) connection: when the table has a date or timestamp column,
 * it is the time index (findTimeIndex takes the first one that has values), so `__periods` and
 * its frequency and gaps can be built at once, with the means of every numeric column (up to
 * EARLY_MEAN_COLUMNS) ready for whichever the statistics then choose. For a DATE column the
 * periods are its distinct values, so its value counts come from the same table instead of a
 * GROUP BY of their own.
 */
export interface EarlyTimeSeries {
  index: TimeIndex;
  /** Numeric columns in `__periods`, as m0, m1, ... */
  means: string[];
  summary: PeriodSummary | null;
  /** Autocorrelations of the first series in `means` (same order), up to lagsFor(summary). */
  acf: (number | null)[][];
  /** The date column's value counts (DATE columns only). */
  dateCounts: {
    count: number;
    distinct: number;
    unique: number;
    top: { value: string; count: number }[];
  } | null;
}

export async function startTimeSeries(
  conn: DuckDBConnection,
  info: { name: string; type: string }[],
  topValues: number,
): Promise<EarlyTimeSeries | null> {
  const date = info.find((c) => familyOf(c.type) === 'datetime');
  if (!date) return null;
  const index: TimeIndex = {
    columns: [date.name],
    source: 'date',
    periodExpr: `CAST(${ident(date.name)} AS DATE)`,
  };
  const means = info
    .filter((c) => familyOf(c.type) === 'numeric' && c.name !== date.name)
    .slice(0, EARLY_MEAN_COLUMNS)
    .map((c) => c.name);
  await buildPeriodTable(conn, index, means);
  const summary = await periodSummary(conn, means.length);
  // The first series' autocorrelations now, while the column statistics are still running
  // elsewhere; the profile keeps those of the columns it shows (at most MAX_ACF_COLUMNS, a few
  // more computed here for the constant ones it skips).
  const acf = summary
    ? await autocorrelations(conn, summary, Math.min(means.length, EARLY_ACF_COLUMNS))
    : [];
  let dateCounts: EarlyTimeSeries['dateCounts'] = null;
  if (date.type.toUpperCase() === 'DATE') {
    const row = await queryOne(
      conn,
      `SELECT coalesce(sum(n), 0) AS c, count(*)::DOUBLE AS d, count_if(n = 1)::DOUBLE AS u,
              (SELECT list({'v': p::VARCHAR, 'n': n}) FROM (SELECT p, n FROM __periods ORDER BY n DESC, p LIMIT ${topValues})) AS top
       FROM __periods`,
    );
    const top = Array.isArray(row.top) ? row.top : [];
    dateCounts = {
      count: toNumber(row.c) ?? 0,
      distinct: toNumber(row.d) ?? 0,
      unique: toNumber(row.u) ?? 0,
      top: top.map((t) => {
        const o = (t ?? {}) as Record<string, unknown>;
        return { value: String(o.v), count: toNumber(o.n as number) ?? 0 };
      }),
    };
  }
  return { index, means, summary, acf, dateCounts };
}

/**
 * The time-series part of a profile, or null when the table has no time index. `early` is
 * what startTimeSeries computed (on a connection of the pool); it is used when the index and
 * the columns chosen agree with it, and otherwise `__periods` is built on this connection.
 */
export async function profileTimeSeries(
  conn: DuckDBConnection,
  columns: ColumnProfile[],
  early: EarlyTimeSeries | null = null,
): Promise<TimeSeriesProfile | null> {
  const index = await findTimeIndex(conn, columns);
  if (!index) return null;
  const numeric = columns
    .filter((c) => c.kind === 'numeric' && c.distinct > 1 && !index.columns.includes(c.name))
    .slice(0, MAX_ACF_COLUMNS)
    .map((c) => c.name);
  const reuse =
    early !== null &&
    early.index.periodExpr === index.periodExpr &&
    numeric.every((name) => {
      const m = early.means.indexOf(name);
      return m >= 0 && m < early.acf.length;
    });
  let summary: PeriodSummary | null;
  let acf: (number | null)[][];
  if (reuse) {
    summary = early.summary;
    acf = numeric.map((name) => early.acf[early.means.indexOf(name)] ?? []);
  } else {
    await buildPeriodTable(conn, index, numeric);
    summary = await periodSummary(conn, numeric.length);
    acf = summary ? await autocorrelations(conn, summary, numeric.length) : [];
  }
  if (!summary) return null;
  const { frequency, periods } = summary;
  const lags = lagsFor(summary);
  return {
    columns: index.columns,
    source: index.source,
    frequency,
    periods,
    start: dateLabel(frequency, summary.start),
    end: dateLabel(frequency, summary.finish),
    rowsPerPeriod: { min: summary.nmin, max: summary.nmax },
    gaps: summary.gaps,
    autocorrelation: lags === 0 ? [] : numeric.map((column, i) => ({ column, lags: acf[i]! })),
  };
}

async function periodGaps(
  conn: DuckDBConnection,
  frequency: Frequency,
  startEpochDay: number,
): Promise<TimeSeriesProfile['gaps']> {
  if (frequency === 'irregular') return { missingPeriods: 0, runs: [] };
  const idx = periodIndexExpr(frequency, 'p', startEpochDay);
  const rows = await queryRows(
    conn,
    `WITH i AS (SELECT DISTINCT ${idx} AS i FROM __periods),
          g AS (SELECT i, lead(i) OVER (ORDER BY i) AS nxt FROM i)
     SELECT i::DOUBLE AS i, nxt::DOUBLE AS nxt, sum(nxt - i - 1) OVER ()::DOUBLE AS total
     FROM g WHERE nxt - i > 1 ORDER BY i LIMIT ${MAX_GAP_RUNS}`,
  );
  const total = toNumber(rows[0]?.total) ?? 0;
  return {
    missingPeriods: total,
    runs: rows.map((r) => {
      const from = (toNumber(r.i) ?? 0) + 1;
      const to = (toNumber(r.nxt) ?? 0) - 1;
      return {
        from: periodLabel(frequency, from, startEpochDay),
        to: periodLabel(frequency, to, startEpochDay),
        periods: to - from + 1,
      };
    }),
  };
}
