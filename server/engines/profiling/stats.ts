import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  ColumnProfile,
  HistogramBin,
  NumericStats,
  ValueCount,
} from '../../../common/teams/data';
import { finalKind, type ProfiledColumn } from './columns';
import { queryOne, readDoubleChunks, toNumber, type Cell, type Row } from './duckdb';
import type { SourcePool } from './source';
import { ident, num } from './sql';
import { OrderStatistics, VALUE_SLICE_ROWS, ValueTable } from './value-table';

/**
 * Per-column statistics of the table `src`. Every column is grouped once by value (the one
 * pass over all rows that exact distinct counts need anyway); for a numeric column everything
 * else (count, sum, mean, moments, exact quantiles, zeros, outliers, histogram) is then worked
 * out in JavaScript from that table of distinct values and their counts (see ValueTable), not
 * from the rows again; a string column's lengths come with its value counts. One more scan
 * covers what the other kinds need (counts, date range, true count). Columns go to the
 * connection pool side by side; only aggregates and value tables come back to JavaScript.
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
export function binner(b: Binning): (x: number) => number {
  const norm = b.bins / (b.hi - b.lo);
  const step = (b.hi - b.lo) / b.bins;
  const last = b.bins - 1;
  const lo = b.lo;
  return (x) => {
    const guess = Math.min(Math.trunc((x - lo) * norm), last);
    if (x < guess * step + lo) return guess - 1;
    if (guess !== last && x >= (guess + 1) * step + lo) return guess + 1;
    return guess;
  };
}

/** The bins of numpy's histogram from (bin index, count) rows. */
export function histogramBins(b: Binning, rows: Row[]): HistogramBin[] {
  const counts = new Array<number>(b.bins).fill(0);
  for (const r of rows) {
    const k = toNumber(r.b);
    if (k !== null && k >= 0 && k < b.bins) counts[k] = toNumber(r.n) ?? 0;
  }
  return histogramOfCounts(b, counts);
}

/** The bins of numpy's histogram from the count of each bin, in order. */
function histogramOfCounts(b: Binning, counts: ArrayLike<number>): HistogramBin[] {
  const step = (b.hi - b.lo) / b.bins;
  return Array.from(counts, (count, j) => ({
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

/**
 * A running sum with Neumaier's compensation: a column's total over up to millions of distinct
 * values (each times its count) loses no digits, as DuckDB's kahan_sum did.
 */
class CompensatedSum {
  private sum = 0;
  private c = 0;
  add(v: number): void {
    const t = this.sum + v;
    this.c += Math.abs(this.sum) >= Math.abs(v) ? this.sum - t + v : v - t + this.sum;
    this.sum = t;
  }
  get value(): number {
    return this.sum + this.c;
  }
}

/** Keeps the TOP_VALUES most frequent values seen, ties by the smaller value. */
class TopValues {
  private readonly kept: { value: number; count: number }[] = [];
  /** Once full: the count and value of the last kept, which a newcomer must beat. */
  worstCount = -Infinity;
  worstValue = Infinity;
  /** Call when (value, count) beats the worst kept (see worstCount, worstValue). */
  offer(value: number, count: number): void {
    const k = this.kept;
    if (k.length === TOP_VALUES) k.pop();
    let i = k.length;
    while (
      i > 0 &&
      (k[i - 1]!.count < count || (k[i - 1]!.count === count && k[i - 1]!.value > value))
    )
      i--;
    k.splice(i, 0, { value, count });
    if (k.length === TOP_VALUES) {
      this.worstCount = k[k.length - 1]!.count;
      this.worstValue = k[k.length - 1]!.value;
    }
  }
  get values(): { value: Cell; count: number }[] {
    return this.kept.map((t) => ({
      value: Number.isFinite(t.value) ? t.value : null,
      count: t.count,
    }));
  }
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
  /** The mean when worked out more closely than total / count (see valueTableFacts). */
  mean?: number;
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
  const mean = p.mean ?? total / count;
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
 * their counts (`g`, connection-private), then passes over that table in JavaScript (see
 * ValueTable): totals, zeros, negatives and top values; histogram, moments and the first split
 * for the order statistics; the values around the quantiles; the outlier counts, which need the
 * quantiles. A column that counts rows is worked out without the table (see rowCounterFacts).
 */
export async function numericFacts(
  conn: DuckDBConnection,
  c: ProfiledColumn,
  rowCount: number,
  sliceRows = VALUE_SLICE_ROWS,
): Promise<NumericFacts> {
  return (await readNumericColumn(conn, c, rowCount, sliceRows, true))();
}

/**
 * The part of numericFacts that needs the connection; what it returns finishes the work. A
 * table with at most `sliceRows` rows cannot have more distinct values than that: its value
 * table is read straight from the GROUP BY into JavaScript, and the passes over it run after the
 * connection has gone back to the pool, beside the next column's query. A larger table's value
 * table is stored and read a slice at a time, on the connection.
 */
async function readNumericColumn(
  conn: DuckDBConnection,
  c: ProfiledColumn,
  rowCount: number,
  sliceRows: number,
  /** Whether the column may count rows (see rowCounterStart). */
  mayCountRows: boolean,
): Promise<() => Promise<NumericFacts>> {
  const first = mayCountRows ? await rowCounterStart(conn, c, rowCount) : null;
  if (first !== null) return () => rowCounterFacts(first, rowCount);
  // Integers are grouped as they are stored and only the distinct values turned into doubles:
  // hashing a million BIGINTs took 80 against 99 ms as doubles.
  const grouped = NATIVE_GROUPING.test(c.type) ? ident(c.name) : c.expr;
  const values = `SELECT v::DOUBLE AS v, n FROM (
       SELECT ${grouped} AS v, count(*)::DOUBLE AS n FROM src WHERE ${ident(c.name)} IS NOT NULL GROUP BY 1)`;
  if (rowCount <= sliceRows) {
    const chunks = await readDoubleChunks(conn, values, 2);
    return () => valueTableFacts(ValueTable.of(chunks));
  }
  const g = `__values_${++tableSeq}`;
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${g} AS ${values}`);
  try {
    const facts = await valueTableFacts(ValueTable.stored(conn, g, sliceRows));
    return () => Promise.resolve(facts);
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${g}`);
  }
}

/**
 * The passes below work on one chunk of the value table (at most 2,048 rows) at a time, in
 * functions of their own with the running figures in local variables: a double written to a
 * variable that a callback shares with its caller is boxed at every write, which made the
 * collector the busiest part of a profile.
 */
interface Totals {
  count: number;
  unique: number;
  lo: number;
  hi: number;
  zeros: number;
  negatives: number;
}

const NO_TOTALS: Totals = {
  count: 0,
  unique: 0,
  lo: Infinity,
  hi: -Infinity,
  zeros: 0,
  negatives: 0,
};

/**
 * A chunk's totals added to `before`; the top values and the totals of n * x and of
 * n * (x - shift) go to `top`, `sum` and `shifted` (plain sums within the chunk, compensated
 * across chunks, as kahan_sum did in SQL).
 */
function addChunkTotals(
  before: Totals,
  values: Float64Array,
  counts: Float64Array,
  top: TopValues,
  sums: { sum: CompensatedSum; shifted: CompensatedSum; shift: number },
): Totals {
  let { count, unique, lo, hi, zeros, negatives } = before;
  const shift = sums.shift;
  let total = 0;
  let shiftedTotal = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    const n = counts[i]!;
    count += n;
    if (n === 1) unique++;
    if (x < lo || x !== x) lo = x; // a NaN stays, for the caller's check
    if (x > hi) hi = x;
    total += n * x;
    shiftedTotal += n * (x - shift);
    if (x === 0) zeros += n;
    else if (x < 0) negatives += n;
    if (n > top.worstCount || (n === top.worstCount && x < top.worstValue)) top.offer(x, n);
  }
  sums.sum.add(total);
  sums.shifted.add(shiftedTotal);
  return { count, unique, lo, hi, zeros, negatives };
}

/**
 * Sums of n (x - mean)^2, ^3 and ^4 over a slice, and its histogram counts. The deviations are
 * taken as (x - shift) - (mean - shift), with `shiftedMean` = mean - shift worked out from the
 * shifted values: x - shift is exact when x lies within a factor of two of `shift` (a value of
 * the column), so a column whose mean is large against its spread (1e9 give or take 1e-3) keeps
 * the digits its deviations are made of, which x - mean, with the mean rounded to the large
 * value's last place, loses.
 */
function sliceMoments(
  values: Float64Array,
  counts: Float64Array,
  centre: { shift: number; shiftedMean: number },
  binOf: ((x: number) => number) | null,
  histogram: Float64Array | null,
): [number, number, number] {
  const { shift, shiftedMean } = centre;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < values.length; i++) {
    const n = counts[i]!;
    const d = values[i]! - shift - shiftedMean;
    const d2 = d * d;
    m2 += n * d2;
    m3 += n * d2 * d;
    m4 += n * d2 * d2;
  }
  if (binOf) for (let i = 0; i < values.length; i++) histogram![binOf(values[i]!)]! += counts[i]!;
  return [m2, m3, m4];
}

/** Values (each counted n times) outside [iqrLower, iqrUpper], and farther than zBound from the mean. */
function sliceOutliers(
  values: Float64Array,
  counts: Float64Array,
  bounds: { mean: number; zBound: number | null; iqrLower: number; iqrUpper: number },
): [number, number] {
  const { mean, iqrLower, iqrUpper } = bounds;
  const zBound = bounds.zBound ?? Infinity;
  let iqr = 0;
  let zScore = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (x < iqrLower || x > iqrUpper) iqr += counts[i]!;
    if (Math.abs(x - mean) > zBound) zScore += counts[i]!;
  }
  return [iqr, zScore];
}

async function valueTableFacts(table: ValueTable): Promise<NumericFacts> {
  // Totals, zeros, negatives, the top values.
  const top = new TopValues();
  // The shift is the table's first value (see sliceMoments).
  let sums: { sum: CompensatedSum; shifted: CompensatedSum; shift: number } | null = null;
  let totals = NO_TOTALS;
  let distinct = 0;
  await table.forEachSlice((values, counts) => {
    if (values.length === 0) return;
    sums ??= { sum: new CompensatedSum(), shifted: new CompensatedSum(), shift: values[0]! };
    totals = addChunkTotals(totals, values, counts, top, sums);
    distinct += values.length;
  });
  const { count, unique, lo, hi, zeros, negatives } = totals;
  const finite = Number.isFinite(lo) && Number.isFinite(hi);
  const base = { count, distinct, unique, top: top.values };
  // NaN and infinities (which a DOUBLE column can hold) leave no meaningful moments.
  if (count === 0 || !finite || !sums) return { ...base, stats: null };
  const { sum, shifted, shift } = sums as {
    sum: CompensatedSum;
    shifted: CompensatedSum;
    shift: number;
  };
  const total = sum.value;
  const shiftedMean = shifted.value / count;
  const mean = shift + shiftedMean;
  // numpy's histogram, the sums of centred powers and the first split of the order statistics.
  const binning =
    hi > lo ? { lo, hi, bins: Math.max(1, Math.min(MAX_HISTOGRAM_BINS, distinct)) } : null;
  const histogram = binning ? new Float64Array(binning.bins) : null;
  const binOf = binning ? binner(binning) : null;
  const order = hi > lo ? new OrderStatistics(lo, hi, distinct) : null;
  const moments = [0, 0, 0];
  await table.forEachSlice((values, counts) => {
    sliceMoments(values, counts, { shift, shiftedMean }, binOf, histogram).forEach(
      (m, i) => (moments[i]! += m),
    );
    order?.countFirst(values, counts);
  });
  const [m2, m3, m4] = moments as [number, number, number];
  const { wanted } = quantilePositions(count);
  const orderStatistics = order ? await order.find(table, wanted) : null;
  const stats = await numericStats({
    count,
    lo,
    hi,
    total,
    mean,
    m2,
    m3,
    m4,
    zeros,
    negatives,
    orderStatistic: (k) => (orderStatistics ? orderStatistics.get(k)! : lo),
    // A constant column: numpy puts every value in one bin around it.
    histogram: binning
      ? histogramOfCounts(binning, histogram!)
      : [{ start: lo - 0.5, end: hi + 0.5, count }],
    countOutliers: async (bounds) => {
      const found = [0, 0];
      await table.forEachSlice((values, counts) =>
        sliceOutliers(values, counts, bounds).forEach((n, i) => (found[i]! += n)),
      );
      return { iqr: found[0]!, zScore: found[1]! };
    },
  });
  return { ...base, stats };
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
 * The sampled columns that cannot count rows: in a row counter the value of every step-th row
 * grows by exactly step, so one sampled pair that does not (or a missing value) rules it out
 * without the scan rowCounterStart makes.
 */
export function notRowCounters(
  names: string[],
  sample: { columns: Float64Array[]; step: number },
): Set<string> {
  const out = new Set<string>();
  names.forEach((name, i) => {
    const values = sample.columns[i]!;
    for (let k = 1; k < values.length; k++) {
      if (!(values[k]! - values[k - 1]! === sample.step)) {
        out.add(name);
        return;
      }
    }
    if (values.length > 0 && Number.isNaN(values[0])) out.add(name);
  });
  return out;
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
  const binOf = binner(binning);
  // Where each bin starts: the first value numpy's rule puts in it or a later bin.
  const starts = Array.from({ length: binning.bins + 1 }, (_, j) =>
    j === 0 ? first : firstHolding(first, last, (v) => binOf(v) >= j),
  );
  const histogram = histogramOfCounts(
    binning,
    starts.slice(0, -1).map((start, b) => starts[b + 1]! - start),
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
  known: {
    /** Value counts computed elsewhere (a date column's, from the period table), by column name. */
    given?: Map<string, Promise<ValueCounts | null>>;
    /** How costly each column's statistics are expected to be (the costliest are queued first). */
    cost?: Map<string, number>;
    /** Columns known not to count rows (see notRowCounters). */
    notRowCounters?: Set<string>;
  } = {},
): Promise<ColumnProfile[]> {
  const given = known.given ?? new Map<string, Promise<ValueCounts | null>>();
  const cost = known.cost ?? new Map<string, number>();
  const notCounters = known.notRowCounters ?? new Set<string>();
  if (columns.length === 0) return [];
  const costOf = (c: ProfiledColumn) => cost.get(c.name) ?? 0;
  const numeric = columns
    .filter((c) => c.family === 'numeric')
    .sort((a, b) => costOf(b) - costOf(a) || a.index - b.index);
  const others = columns.filter((c) => c.family !== 'numeric');
  const counted = others.filter((c) => c.family !== 'unsupported' && !given.has(c.name));
  // The costliest first (numeric columns), so the pool's last tasks are short ones. Each
  // numeric column is finished as soon as its own query is in (see readNumericColumn).
  const numericResults = numeric.map((c) =>
    pool
      .run([(x) => readNumericColumn(x, c, rowCount, VALUE_SLICE_ROWS, !notCounters.has(c.name))])
      .then(([finish]) => finish!()),
  );
  const results = await Promise.all([
    Promise.all(numericResults),
    pool.run<Map<number, OtherFacts> | ValueCounts>([
      (x) => otherFacts(x, others),
      ...counted.map((c) => (x: DuckDBConnection) => valueCounts(x, c)),
    ]),
  ]);
  const [numericFactsList, [other, ...counts]] = results as [
    NumericFacts[],
    [Map<number, OtherFacts>, ...ValueCounts[]],
  ];
  const facts = new Map<number, ValueCounts | NumericFacts>();
  numeric.forEach((c, k) => facts.set(c.index, numericFactsList[k]!));
  counted.forEach((c, k) => facts.set(c.index, counts[k]!));
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
