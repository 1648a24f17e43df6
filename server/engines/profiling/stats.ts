import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  ColumnProfile,
  HistogramBin,
  NumericStats,
  ValueCount,
} from '../../../common/teams/data';
import { finalKind, type ProfiledColumn } from './columns';
import { queryOne, queryRows, readDoubleColumns, toNumber, type Cell, type Row } from './duckdb';
import type { SourcePool } from './source';
import { ident, num } from './sql';

/**
 * Per-column statistics of the table `src`. Every column is grouped once by value (the one
 * pass over all rows that exact distinct counts need anyway); for a numeric column everything
 * else (count, sum, mean, moments, exact quantiles, zeros, outliers, histogram) is then read
 * from that small table of distinct values and their counts, not from the rows again. One more
 * scan covers what the other kinds need (text lengths, date range, true count). Columns go to
 * the connection pool side by side; only aggregates come back to JavaScript.
 */

export const TOP_VALUES = 10;
export const MAX_HISTOGRAM_BINS = 50;
export const Z_SCORE_LIMIT = 3;
export const IQR_FACTOR = 1.5;

const QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

export interface ValueCounts {
  count: number;
  distinct: number;
  unique: number;
  top: { value: Cell; count: number }[];
  /** String columns: lengths and blanks, read from the same table of distinct values. */
  text?: TextFacts;
}

interface TextFacts {
  minLength: number;
  meanLength: number;
  maxLength: number;
  blank: number;
}

interface NumericFacts extends ValueCounts {
  stats: NumericStats | null;
}

interface OtherFacts {
  count: number;
  minText?: string;
  maxText?: string;
  trueCount?: number;
}

/**
 * One scan for what non-numeric columns need besides their value counts: the count, a date
 * column's range, a boolean column's true values. (A string column's lengths come with its value
 * counts, from its distinct values: 8 region names instead of a million rows.)
 */
async function otherFacts(
  conn: DuckDBConnection,
  columns: ProfiledColumn[],
): Promise<Map<number, OtherFacts>> {
  const parts: string[] = [];
  for (const c of columns) {
    const p = `c${c.index}_`;
    parts.push(`count(${ident(c.name)})::DOUBLE AS ${p}n`);
    if (c.family === 'datetime') {
      // The stored type's own min and max (read from the Parquet statistics), cast after:
      // the same values as the min and max of every row cast first, without the casts.
      const raw = ident(c.name);
      parts.push(
        `min(${raw})::TIMESTAMP::VARCHAR AS ${p}mint`,
        `max(${raw})::TIMESTAMP::VARCHAR AS ${p}maxt`,
      );
    } else if (c.family === 'boolean') {
      parts.push(`count_if(${ident(c.name)})::DOUBLE AS ${p}true`);
    }
  }
  const out = new Map<number, OtherFacts>();
  if (parts.length === 0) return out;
  const row = await queryOne(conn, `SELECT ${parts.join(', ')} FROM src`);
  for (const c of columns) {
    const p = `c${c.index}_`;
    const n = (k: string) => toNumber(row[p + k]);
    const f: OtherFacts = { count: n('n') ?? 0 };
    if (c.family === 'datetime' && f.count > 0) {
      f.minText = String(row[p + 'mint']);
      f.maxText = String(row[p + 'maxt']);
    } else if (c.family === 'boolean') {
      f.trueCount = n('true') ?? 0;
    }
    out.set(c.index, f);
  }
  return out;
}

/**
 * Distinct and unique counts and the most frequent values of a non-numeric column, and a string
 * column's lengths and blanks (each distinct value weighted by its count).
 */
async function valueCounts(conn: DuckDBConnection, c: ProfiledColumn): Promise<ValueCounts> {
  // Dates are grouped as they are and only the top ones turned into text.
  const v = c.family === 'datetime' ? ident(c.name) : c.expr;
  const shown = c.family === 'datetime' ? 'v::VARCHAR' : 'v';
  const string = c.family === 'string';
  const text = string
    ? `, min(length(v))::DOUBLE AS minlen, sum(n * length(v)) / sum(n) AS meanlen,
       max(length(v))::DOUBLE AS maxlen, coalesce(sum(n) FILTER (WHERE trim(v) = ''), 0) AS blank`
    : '';
  const row = await queryOne(
    conn,
    `WITH g AS MATERIALIZED (SELECT ${v} AS v, count(*)::DOUBLE AS n FROM src WHERE ${ident(c.name)} IS NOT NULL GROUP BY 1)
     SELECT sum(n) AS c, count(*)::DOUBLE AS d, count_if(n = 1)::DOUBLE AS u${text},
       (SELECT list({'v': ${shown}, 'n': n}) FROM (SELECT v, n FROM g ORDER BY n DESC, v LIMIT ${TOP_VALUES})) AS top
     FROM g`,
  );
  const counts: ValueCounts = {
    count: toNumber(row.c) ?? 0,
    distinct: toNumber(row.d) ?? 0,
    unique: toNumber(row.u) ?? 0,
    top: readTop(row.top, false),
  };
  if (string && counts.count > 0) {
    counts.text = {
      minLength: toNumber(row.minlen) ?? 0,
      meanLength: toNumber(row.meanlen) ?? 0,
      maxLength: toNumber(row.maxlen) ?? 0,
      blank: toNumber(row.blank) ?? 0,
    };
  }
  return counts;
}

function readTop(cell: Cell | undefined, numeric: boolean): { value: Cell; count: number }[] {
  const list = Array.isArray(cell) ? cell : [];
  return list.map((t) => {
    const o = (t ?? {}) as Record<string, Cell>;
    return { value: numeric ? toNumber(o.v) : (o.v ?? null), count: toNumber(o.n) ?? 0 };
  });
}

export interface Binning {
  lo: number;
  hi: number;
  bins: number;
}

/**
 * The bin of x among `bins` equal bins over [lo, hi], exactly as numpy.histogram assigns it:
 * a first guess from the scaled value, corrected against the edges lo + j * step so values on
 * an edge fall in the bin that starts there (the last bin is closed).
 */
export function binExpression(x: string, b: Binning): string {
  const norm = b.bins / (b.hi - b.lo);
  const step = (b.hi - b.lo) / b.bins;
  // least() skips NULLs: callers filter missing values out first.
  const guess = `least(trunc((${x} - ${num(b.lo)}) * ${num(norm)})::BIGINT, ${b.bins - 1})`;
  const edge = (j: string) => `(${j} * ${num(step)} + ${num(b.lo)})`;
  return (
    `CASE WHEN ${x} < ${edge(guess)} THEN ${guess} - 1 ` +
    `WHEN ${guess} <> ${b.bins - 1} AND ${x} >= ${edge(`(${guess} + 1)`)} THEN ${guess} + 1 ` +
    `ELSE ${guess} END`
  );
}

/** binExpression's rule in JavaScript, for values counted here rather than in SQL. */
export function binOf(x: number, b: Binning): number {
  const norm = b.bins / (b.hi - b.lo);
  const step = (b.hi - b.lo) / b.bins;
  const guess = Math.min(Math.trunc((x - b.lo) * norm), b.bins - 1);
  if (x < guess * step + b.lo) return guess - 1;
  if (guess !== b.bins - 1 && x >= (guess + 1) * step + b.lo) return guess + 1;
  return guess;
}

/** The bins of numpy's histogram from (bin index, count) rows. */
export function histogramBins(b: Binning, rows: Row[]): HistogramBin[] {
  const step = (b.hi - b.lo) / b.bins;
  const counts = new Array<number>(b.bins).fill(0);
  for (const r of rows) {
    const k = toNumber(r.b);
    if (k !== null && k >= 0 && k < b.bins) counts[k] = toNumber(r.n) ?? 0;
  }
  return counts.map((count, j) => ({
    start: j * step + b.lo,
    end: j === b.bins - 1 ? b.hi : (j + 1) * step + b.lo,
    count,
  }));
}

/**
 * pandas' skew and kurt from the sums of centred powers. DuckDB's own skewness() and
 * kurtosis() use raw power sums, which lose digits when the mean is large against the spread
 * (years, price levels): 1e-6 off pandas on a year column.
 */
export function shapeFromCentralSums(
  n: number,
  m2: number,
  m3: number,
  m4: number,
): { skewness: number | null; kurtosis: number | null } {
  const skewness =
    n < 3 ? null : m2 === 0 ? 0 : ((n * Math.sqrt(n - 1)) / (n - 2)) * (m3 / m2 ** 1.5);
  let kurtosis: number | null = null;
  if (n >= 4) {
    if (m2 === 0) kurtosis = 0;
    else {
      const adj = (3 * (n - 1) ** 2) / ((n - 2) * (n - 3));
      const numerator = n * (n + 1) * (n - 1) * m4;
      const denominator = (n - 2) * (n - 3) * m2 ** 2;
      kurtosis = numerator / denominator - adj;
    }
  }
  return { skewness, kurtosis };
}

let tableSeq = 0;

/**
 * Integer types grouped as stored (see numericFacts). Past 2^53 two BIGINTs may meet as one
 * double; they stay two values, as in pandas' int64 columns.
 */
const NATIVE_GROUPING = /^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER)$/i;

const LOCATE_BINS = 1024;

/** A compensated (Neumaier) sum: adding up DuckDB's per-bin partial sums loses no digits. */
export function compensatedSum(values: Iterable<number>): number {
  let sum = 0;
  let c = 0;
  for (const v of values) {
    const t = sum + v;
    c += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + c;
}

/**
 * One pass over the table `g` of distinct values and counts, grouped by (locating bin,
 * histogram bin, sign): counts per locating bin (which of LOCATE_BINS equal-width bins holds each
 * order statistic), numpy's histogram counts, the zeros and negatives, the largest count (a
 * bound for the top values' query) and the sums of centred powers for pandas' skew and
 * kurtosis, as partial sums per group added up here. A group's values lie in one narrow bin, so
 * its centred powers have one sign and similar sizes and a plain sum loses next to nothing; the
 * groups' sums are added with a compensated sum (kahan_sum per group cost a fifth more). The bins
 * and powers are worked out once per value in a subquery, and only the groups' keys cast to
 * DOUBLE (casting every value's keys before grouping cost a sixth of the query).
 */
async function binnedFacts(
  conn: DuckDBConnection,
  g: string,
  mean: number,
  histogram: Binning | null,
  locate: string | null,
): Promise<{
  m2: number;
  m3: number;
  m4: number;
  zeros: number;
  negatives: number;
  /** The largest count in each group. */
  groupMaxima: Float64Array;
  locateCounts: { b: number; c: number }[];
  histogramRows: Row[];
}> {
  const lb = locate ?? '0';
  const hb = histogram ? binExpression('v', histogram) : '0';
  const [lbs, hbs, signs, cs, m2s, m3s, m4s, maxima] = await readDoubleColumns(
    conn,
    `SELECT lb::DOUBLE, hb::DOUBLE, sg::DOUBLE, c, m2, m3, m4, nmax FROM (
       SELECT lb, hb, sg, sum(n) AS c, sum(n * d2) AS m2, sum(n * d2 * d) AS m3, sum(n * d2 * d2) AS m4,
              max(n) AS nmax
       FROM (SELECT ${lb} AS lb, ${hb} AS hb, sign(v) AS sg, n, d, d * d AS d2
             FROM (SELECT v, n, v - ${num(mean)} AS d FROM ${g}))
       GROUP BY ALL)`,
    8,
  );
  const byLocate = new Map<number, number>();
  const byHistogram = new Map<number, number>();
  let zeros = 0;
  let negatives = 0;
  for (let r = 0; r < cs!.length; r++) {
    const c = cs![r]!;
    byLocate.set(lbs![r]!, (byLocate.get(lbs![r]!) ?? 0) + c);
    byHistogram.set(hbs![r]!, (byHistogram.get(hbs![r]!) ?? 0) + c);
    if (signs![r] === 0) zeros += c;
    else if (signs![r]! < 0) negatives += c;
  }
  return {
    m2: compensatedSum(m2s!),
    m3: compensatedSum(m3s!),
    m4: compensatedSum(m4s!),
    zeros,
    negatives,
    groupMaxima: maxima!,
    locateCounts: [...byLocate].map(([b, c]) => ({ b, c })).sort((x, y) => x.b - y.b),
    histogramRows: [...byHistogram].map(([b, n]) => ({ b, n })),
  };
}

/**
 * The TOP_VALUES most frequent values of the table `g` (ties by value), given the largest count
 * of each of the groups binnedFacts formed. Those maxima are counts of different values, so the
 * TOP_VALUES-th largest of them is a count that many values reach: only values counted at least
 * that often can be among the top ones, and the sort sees only them.
 */
async function topValues(
  conn: DuckDBConnection,
  g: string,
  groupMaxima: Float64Array,
): Promise<{ value: Cell; count: number }[]> {
  const maxima = [...groupMaxima].sort((a, b) => b - a);
  const floor = maxima.length >= TOP_VALUES ? maxima[TOP_VALUES - 1]! : 0;
  const row = await queryOne(
    conn,
    `SELECT list({'v': v, 'n': n}) AS top FROM (SELECT v, n FROM ${g} WHERE n >= ${num(floor)} ORDER BY n DESC, v LIMIT ${TOP_VALUES})`,
  );
  return readTop(row.top, true);
}

/** SQL for the locating bin of v (see orderStatistics), or null for a constant column. */
function locateBin(range: { lo: number; hi: number }): string | null {
  if (range.hi === range.lo) return null;
  const norm = LOCATE_BINS / (range.hi - range.lo);
  return `least(trunc((v - ${num(range.lo)}) * ${num(norm)})::BIGINT, ${LOCATE_BINS - 1})`;
}

/**
 * The k-th smallest values (0-based) of the table `g` of distinct values and counts, without
 * sorting it: counts per equal-width bin (from binnedFacts) say which bin holds each order
 * statistic, then only those bins' values are sorted. (Sorting a million distinct values cost
 * more than the rest of the column's statistics together.)
 */
async function orderStatistics(
  conn: DuckDBConnection,
  g: string,
  wanted: number[],
  range: { lo: number; hi: number },
  bin: string | null,
  counts: { b: number; c: number }[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (bin === null) {
    for (const k of wanted) out.set(k, range.lo);
    return out;
  }
  // For each wanted k: its bin and how many values come before that bin.
  const where = new Map<number, { bin: number; before: number }>();
  let before = 0;
  let i = 0;
  const sorted = [...wanted].sort((a, b) => a - b);
  for (const { b, c } of counts) {
    while (i < sorted.length && sorted[i]! < before + c) {
      where.set(sorted[i]!, { bin: b, before });
      i++;
    }
    before += c;
  }
  // Each wanted k is the value whose running count within its bin passes k - before: a window
  // over the few bins concerned, joined to the wanted offsets, so only those values come back.
  const offsets = [...where].map(([k, w]) => `(${k}, ${w.bin}, ${k - w.before})`);
  const bins = [...new Set([...where.values()].map((w) => w.bin))];
  const rows = await queryRows(
    conn,
    `WITH s AS (SELECT ${bin} AS b, v, n, sum(n) OVER (PARTITION BY ${bin} ORDER BY v ROWS UNBOUNDED PRECEDING) AS cum
                FROM ${g} WHERE ${bin} IN (${bins.join(', ')})),
          w(k, b, off) AS (VALUES ${offsets.join(', ')})
     SELECT w.k AS k, s.v AS v FROM w JOIN s ON s.b = w.b AND s.cum - s.n <= w.off AND w.off < s.cum`,
  );
  for (const r of rows) out.set(toNumber(r.k) ?? -1, toNumber(r.v) ?? NaN);
  return out;
}

/** The 0-based order statistics the exact quantiles of `count` values interpolate between. */
function quantilePositions(count: number): { positions: number[]; wanted: number[] } {
  const positions = QUANTILES.map((p) => (count - 1) * p);
  const wanted = [
    ...new Set(positions.flatMap((h) => [Math.floor(h), Math.min(count - 1, Math.floor(h) + 1)])),
  ];
  return { positions, wanted };
}

/** What a numeric column's statistics are made of, however they were counted. */
interface NumericParts {
  count: number;
  lo: number;
  hi: number;
  total: number;
  /** Sums of centred powers (for pandas' variance, skew and kurtosis). */
  m2: number;
  m3: number;
  m4: number;
  zeros: number;
  negatives: number;
  /** The k-th smallest value (0-based), for k in quantilePositions(count).wanted. */
  orderStatistic: (k: number) => number;
  histogram: HistogramBin[];
  /** Values with |v - mean| > zBound (none when zBound is null), and outside the IQR fences. */
  countOutliers: (bounds: {
    mean: number;
    zBound: number | null;
    iqrLower: number;
    iqrUpper: number;
  }) => Promise<{ zScore: number; iqr: number }>;
}

async function numericStats(p: NumericParts): Promise<NumericStats> {
  const { count, lo, hi, total } = p;
  const mean = total / count;
  // Exact quantiles (linear interpolation between order statistics, pandas' default).
  const q = quantilePositions(count).positions.map((h) => {
    const low = p.orderStatistic(Math.floor(h));
    const high = p.orderStatistic(Math.min(count - 1, Math.floor(h) + 1));
    return low + (high - low) * (h - Math.floor(h));
  });
  const [p5, p25, p50, p75, p95] = [q[0]!, q[1]!, q[2]!, q[3]!, q[4]!];
  const variance = count > 1 ? p.m2 / (count - 1) : null;
  const sd = variance === null ? null : Math.sqrt(variance);
  const shape = shapeFromCentralSums(count, p.m2, p.m3, p.m4);
  const iqr = p75 - p25;
  const iqrLower = p25 - IQR_FACTOR * iqr;
  const iqrUpper = p75 + IQR_FACTOR * iqr;
  const zBound = sd !== null && sd > 0 ? Z_SCORE_LIMIT * sd : null;
  const outliers = await p.countOutliers({ mean, zBound, iqrLower, iqrUpper });
  return {
    min: lo,
    max: hi,
    mean,
    sd,
    variance,
    sum: total,
    quantiles: { p5, p25, p50, p75, p95 },
    iqr,
    range: hi - lo,
    skewness: shape.skewness,
    kurtosis: shape.kurtosis,
    cv: sd !== null && mean !== 0 ? sd / mean : null,
    zeros: p.zeros,
    zerosShare: p.zeros / count,
    negatives: p.negatives,
    histogram: p.histogram,
    outliers: { ...outliers, iqrLower, iqrUpper },
  };
}

/**
 * Everything about a numeric column from one GROUP BY: the table of its distinct values and
 * their counts (`g`, connection-private), then small queries over that table (totals; binned
 * counts, moments, zeros and negatives; the values of the bins holding the quantiles; the top
 * values; the outlier counts, which need the quantiles). A column that counts rows is worked out
 * without the table (see rowCounterFacts).
 */
async function numericFacts(
  conn: DuckDBConnection,
  c: ProfiledColumn,
  rowCount: number,
): Promise<NumericFacts> {
  const first = await rowCounterStart(conn, c, rowCount);
  if (first !== null) return rowCounterFacts(first, rowCount);
  const g = `__values_${++tableSeq}`;
  // Integers are grouped as they are stored and only the distinct values turned into doubles:
  // hashing a million BIGINTs took 80 against 99 ms as doubles.
  const grouped = NATIVE_GROUPING.test(c.type) ? ident(c.name) : c.expr;
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE ${g} AS SELECT v::DOUBLE AS v, n FROM (
       SELECT ${grouped} AS v, count(*)::DOUBLE AS n FROM src WHERE ${ident(c.name)} IS NOT NULL GROUP BY 1)`,
  );
  try {
    const a = await queryOne(
      conn,
      `SELECT sum(n) AS c, count(*)::DOUBLE AS d, count_if(n = 1)::DOUBLE AS u, min(v) AS lo,
              max(v) AS hi, kahan_sum(n * v) AS total FROM ${g}`,
    );
    const count = toNumber(a.c) ?? 0;
    const distinct = toNumber(a.d) ?? 0;
    const unique = toNumber(a.u) ?? 0;
    const lo = toNumber(a.lo);
    const hi = toNumber(a.hi);
    if (count === 0 || lo === null || hi === null) {
      return { count, distinct, unique, top: [], stats: null };
    }
    const total = toNumber(a.total) ?? 0;
    const range = { lo, hi };
    const binning =
      hi > lo ? { lo, hi, bins: Math.max(1, Math.min(MAX_HISTOGRAM_BINS, distinct)) } : null;
    const locate = locateBin(range);
    const binned = await binnedFacts(conn, g, total / count, binning, locate);
    // The order statistic k (0-based) is the smallest value whose running count passes k.
    // When every value occurs once, the top values are the smallest ones: the first order
    // statistics, found with the others.
    const { wanted } = quantilePositions(count);
    const smallest = unique === distinct ? Math.min(TOP_VALUES, distinct) : 0;
    const firsts = Array.from({ length: smallest }, (_, k) => k);
    const order = await orderStatistics(
      conn,
      g,
      [...new Set([...wanted, ...firsts])],
      range,
      locate,
      binned.locateCounts,
    );
    const top =
      smallest > 0
        ? firsts.map((k) => ({ value: order.get(k)!, count: 1 }))
        : await topValues(conn, g, binned.groupMaxima);
    const stats = await numericStats({
      count,
      lo,
      hi,
      total,
      m2: binned.m2,
      m3: binned.m3,
      m4: binned.m4,
      zeros: binned.zeros,
      negatives: binned.negatives,
      orderStatistic: (k) => order.get(k)!,
      // A constant column: numpy puts every value in one bin around it.
      histogram: binning
        ? histogramBins(binning, binned.histogramRows)
        : [{ start: lo - 0.5, end: hi + 0.5, count }],
      countOutliers: async ({ mean, zBound, iqrLower, iqrUpper }) => {
        const z = zBound === null ? 'false' : `abs(v - ${num(mean)}) > ${num(zBound)}`;
        const o = await queryOne(
          conn,
          `SELECT coalesce(sum(n) FILTER (WHERE v < ${num(iqrLower)} OR v > ${num(iqrUpper)}), 0) AS iqr,
                  coalesce(sum(n) FILTER (WHERE ${z}), 0) AS z FROM ${g}`,
        );
        return { zScore: toNumber(o.z) ?? 0, iqr: toNumber(o.iqr) ?? 0 };
      },
    });
    return { count, distinct, unique, top, stats };
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${g}`);
  }
}

/**
 * The first value of an integer column that counts the rows (an index or row number column:
 * every row's value is its position in the file plus that first value), else null. One scan,
 * and the proof that every value is distinct without hashing them: the value table of such a
 * column is as large as the file, and building it plus the four queries over it made this the
 * most expensive column of a profile. Values too large for exact sums take the general way.
 */
async function rowCounterStart(
  conn: DuckDBConnection,
  c: ProfiledColumn,
  rowCount: number,
): Promise<number | null> {
  if (!NATIVE_GROUPING.test(c.type) || rowCount < 2) return null;
  let row: Row;
  try {
    row = await queryOne(
      conn,
      `SELECT min(${ident(c.name)} - __row)::DOUBLE AS lo, max(${ident(c.name)} - __row)::DOUBLE AS hi,
              count(${ident(c.name)})::DOUBLE AS n FROM src_numbered`,
    );
  } catch {
    return null; // an integer overflow near the type's limits: not a row counter
  }
  const lo = toNumber(row.lo);
  if (lo === null || lo !== toNumber(row.hi) || toNumber(row.n) !== rowCount) return null;
  const last = lo + rowCount - 1;
  const sum = (rowCount * (lo + last)) / 2;
  return Number.isSafeInteger(sum) && Number.isSafeInteger(last) && Number.isSafeInteger(lo)
    ? lo
    : null;
}

/**
 * The first integer v in [lo, hi] for which `holds(v)` is true, where `holds` is false up to
 * some point and true after it; hi + 1 when it never holds. Counting the integers of a range
 * that pass a monotone test takes a few dozen tests instead of one per value.
 */
function firstHolding(lo: number, hi: number, holds: (v: number) => boolean): number {
  let a = lo;
  let b = hi + 1;
  while (a < b) {
    const mid = Math.floor((a + b) / 2);
    if (holds(mid)) b = mid;
    else a = mid + 1;
  }
  return a;
}

/**
 * The statistics of the n consecutive integers first .. first + n - 1 (each once) in closed
 * form. The histogram bins follow numpy's rule exactly as the SQL applies it to each value; the
 * rule is monotone in the value, so each bin's count comes from where it starts.
 */
async function rowCounterFacts(first: number, n: number): Promise<NumericFacts> {
  const last = first + n - 1;
  const binning = { lo: first, hi: last, bins: Math.min(MAX_HISTOGRAM_BINS, n) };
  // Where each bin starts: the first value numpy's rule puts in it or a later bin.
  const starts = Array.from({ length: binning.bins + 1 }, (_, j) =>
    j === 0 ? first : firstHolding(first, last, (v) => binOf(v, binning) >= j),
  );
  const histogram = histogramBins(
    binning,
    starts.slice(0, -1).map((start, b) => ({ b, n: starts[b + 1]! - start })),
  );
  const stats = await numericStats({
    count: n,
    lo: first,
    hi: last,
    total: (n * (first + last)) / 2,
    // Sums of (k - mean)^p over k = 0 .. n-1: n(n^2-1)/12, 0 and n(n^2-1)(3n^2-7)/240.
    m2: (n * (n * n - 1)) / 12,
    m3: 0,
    m4: (n * (n * n - 1) * (3 * n * n - 7)) / 240,
    zeros: first <= 0 && last >= 0 ? 1 : 0,
    negatives: first < 0 ? Math.min(n, -first) : 0,
    orderStatistic: (k) => first + k,
    histogram,
    // None, whatever n: the farthest value is (n - 1) / 2 from the mean, less than 3 standard
    // deviations (3 sqrt(n(n + 1) / 12)), and the IQR fences lie (n - 1) / 2 beyond the ends.
    countOutliers: () => Promise.resolve({ zScore: 0, iqr: 0 }),
  });
  return {
    count: n,
    distinct: n,
    unique: n,
    // Every value once: the first TOP_VALUES by value, as the general query orders ties.
    top: Array.from({ length: Math.min(TOP_VALUES, n) }, (_, i) => ({
      value: first + i,
      count: 1,
    })),
    stats,
  };
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
const EMPTY: ValueCounts = { count: 0, distinct: 0, unique: 0, top: [] };

/** Profiles of every column of `src` (rowCount rows). */
export async function profileColumns(
  conn: DuckDBConnection,
  columns: ProfiledColumn[],
  rowCount: number,
  pool: SourcePool,
  /** Value counts computed elsewhere (a date column's, from the period table), by column name. */
  given: Map<string, Promise<ValueCounts | null>> = new Map(),
  /** How costly each column's statistics are expected to be (the costliest are queued first). */
  cost: Map<string, number> = new Map(),
): Promise<ColumnProfile[]> {
  if (columns.length === 0) return [];
  const costOf = (c: ProfiledColumn) => cost.get(c.name) ?? 0;
  const numeric = columns
    .filter((c) => c.family === 'numeric')
    .sort((a, b) => costOf(b) - costOf(a) || a.index - b.index);
  const others = columns.filter((c) => c.family !== 'numeric');
  const counted = others.filter((c) => c.family !== 'unsupported' && !given.has(c.name));
  // The costliest first (numeric columns), so the pool's last tasks are short ones.
  const results = await pool.run<Map<number, OtherFacts> | NumericFacts | ValueCounts>([
    ...numeric.map((c) => (x: DuckDBConnection) => numericFacts(x, c, rowCount)),
    (x) => otherFacts(x, others),
    ...counted.map((c) => (x: DuckDBConnection) => valueCounts(x, c)),
  ]);
  const other = results[numeric.length] as Map<number, OtherFacts>;
  const facts = new Map<number, ValueCounts | NumericFacts>();
  numeric.forEach((c, k) => facts.set(c.index, results[k] as NumericFacts));
  counted.forEach((c, k) => facts.set(c.index, results[numeric.length + 1 + k] as ValueCounts));
  for (const c of others) {
    const known = given.get(c.name);
    if (!known) continue;
    // Counted elsewhere; null means that count was not possible after all.
    facts.set(c.index, (await known) ?? (await valueCounts(conn, c)));
  }

  return columns.map((c) => {
    const vc = facts.get(c.index) ?? EMPTY;
    const extra = other.get(c.index);
    const count = c.family === 'numeric' ? vc.count : (extra?.count ?? 0);
    const missing = rowCount - count;
    const numericStats: NumericStats | null = (vc as Partial<NumericFacts>).stats ?? null;
    const topValues: ValueCount[] = vc.top.map((t) => ({
      value: t.value as ValueCount['value'],
      count: t.count,
      share: share(t.count, count),
    }));
    const profile: ColumnProfile = {
      name: c.name,
      storageType: c.type,
      kind: finalKind(c.family, {
        distinct: vc.distinct,
        min: numericStats?.min,
        max: numericStats?.max,
        meanLength: vc.text?.meanLength,
      }),
      count,
      missing,
      missingShare: share(missing, rowCount),
      distinct: vc.distinct,
      distinctShare: share(vc.distinct, count),
      unique: vc.unique,
      topValues,
    };
    if (numericStats) profile.numeric = numericStats;
    if (c.family === 'string' && count > 0 && vc.text) profile.text = vc.text;
    if (c.family === 'datetime' && count > 0 && extra) {
      profile.datetime = { min: extra.minText!, max: extra.maxText! };
    }
    if (c.family === 'boolean' && extra) {
      profile.boolean = { trueCount: extra.trueCount!, falseCount: count - extra.trueCount! };
    }
    return profile;
  });
}
