import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  ColumnProfile,
  HistogramBin,
  NumericStats,
  ValueCount,
} from '../../../common/teams/data';
import { finalKind, type ProfiledColumn } from './columns';
import { queryOne, queryRows, toNumber, type Cell, type Row } from './duckdb';
import type { SourcePool } from './profile';
import { ident, num } from './sql';

/**
 * Per-column statistics in three passes over the table `src`:
 *   1. one scan computes every column's counts, moments, quantiles, zeros and lengths;
 *   2. one GROUP BY per column gives distinct and unique counts and the top values;
 *   3. one scan bins every numeric column and counts its outliers (it needs pass 1's numbers).
 * Only these aggregates come back to JavaScript.
 */

export const TOP_VALUES = 10;
export const MAX_HISTOGRAM_BINS = 50;
export const Z_SCORE_LIMIT = 3;
export const IQR_FACTOR = 1.5;

const QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

interface PassOne {
  count: number;
  min?: number;
  max?: number;
  mean?: number;
  sd?: number | null;
  variance?: number | null;
  sum?: number;
  quantiles?: number[];
  zeros?: number;
  negatives?: number;
  minLength?: number;
  meanLength?: number;
  maxLength?: number;
  blank?: number;
  minText?: string;
  maxText?: string;
  trueCount?: number;
}

function passOneSql(columns: ProfiledColumn[]): string {
  const parts: string[] = [];
  for (const c of columns) {
    const p = `c${c.index}_`;
    const x = c.expr;
    parts.push(`count(${ident(c.name)})::DOUBLE AS ${p}n`);
    if (c.family === 'numeric') {
      parts.push(
        `min(${x}) AS ${p}min`,
        `max(${x}) AS ${p}max`,
        `avg(${x}) AS ${p}mean`,
        `stddev_samp(${x}) AS ${p}sd`,
        `var_samp(${x}) AS ${p}var`,
        `sum(${x}) AS ${p}sum`,
        `count_if(${x} = 0)::DOUBLE AS ${p}zeros`,
        `count_if(${x} < 0)::DOUBLE AS ${p}neg`,
      );
    } else if (c.family === 'string') {
      parts.push(
        `min(length(${x}))::DOUBLE AS ${p}minlen`,
        `avg(length(${x})) AS ${p}meanlen`,
        `max(length(${x}))::DOUBLE AS ${p}maxlen`,
        `count_if(trim(${x}) = '')::DOUBLE AS ${p}blank`,
      );
    } else if (c.family === 'datetime') {
      parts.push(`min(${x})::VARCHAR AS ${p}mint`, `max(${x})::VARCHAR AS ${p}maxt`);
    } else if (c.family === 'boolean') {
      parts.push(`count_if(${ident(c.name)})::DOUBLE AS ${p}true`);
    }
  }
  return `SELECT ${parts.join(', ')} FROM src`;
}

function readPassOne(row: Row, c: ProfiledColumn): PassOne {
  const p = `c${c.index}_`;
  const n = (k: string) => toNumber(row[p + k]);
  const out: PassOne = { count: n('n') ?? 0 };
  if (c.family === 'numeric' && out.count > 0) {
    out.min = n('min') ?? undefined;
    out.max = n('max') ?? undefined;
    out.mean = n('mean') ?? undefined;
    out.sd = n('sd');
    out.variance = n('var');
    out.sum = n('sum') ?? 0;
    out.zeros = n('zeros') ?? 0;
    out.negatives = n('neg') ?? 0;
  } else if (c.family === 'string' && out.count > 0) {
    out.minLength = n('minlen') ?? 0;
    out.meanLength = n('meanlen') ?? 0;
    out.maxLength = n('maxlen') ?? 0;
    out.blank = n('blank') ?? 0;
  } else if (c.family === 'datetime' && out.count > 0) {
    out.minText = String(row[p + 'mint']);
    out.maxText = String(row[p + 'maxt']);
  } else if (c.family === 'boolean') {
    out.trueCount = n('true') ?? 0;
  }
  return out;
}

interface ValueCounts {
  distinct: number;
  unique: number;
  top: { value: Cell; count: number }[];
}

/** Distinct and unique counts and the most frequent values of one column (one GROUP BY). */
async function valueCounts(conn: DuckDBConnection, c: ProfiledColumn): Promise<ValueCounts> {
  // Numbers are grouped as DOUBLE (1 and 1.0 are one value); dates are grouped as they are
  // and only the top ones turned into text.
  const v = c.family === 'datetime' ? ident(c.name) : c.expr;
  const shown = c.family === 'datetime' ? 'v::VARCHAR' : 'v';
  const row = await queryOne(
    conn,
    `WITH g AS MATERIALIZED (SELECT ${v} AS v, count(*)::DOUBLE AS n FROM src WHERE ${ident(c.name)} IS NOT NULL GROUP BY 1)
     SELECT count(*)::DOUBLE AS d, count_if(n = 1)::DOUBLE AS u,
       (SELECT list({'v': ${shown}, 'n': n}) FROM (SELECT v, n FROM g ORDER BY n DESC, v LIMIT ${TOP_VALUES})) AS top
     FROM g`,
  );
  const top = Array.isArray(row.top) ? row.top : [];
  return {
    distinct: toNumber(row.d) ?? 0,
    unique: toNumber(row.u) ?? 0,
    top: top.map((t) => {
      const o = (t ?? {}) as Record<string, Cell>;
      const value = c.family === 'numeric' ? toNumber(o.v) : (o.v ?? null);
      return { value, count: toNumber(o.n) ?? 0 };
    }),
  };
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
  return binFromGuess(x, binGuess(x, b), b);
}

/** The first guess of the bin: the scaled value, truncated (numpy's f_indices.astype(intp)). */
function binGuess(x: string, b: Binning): string {
  const norm = b.bins / (b.hi - b.lo);
  return `least(trunc((${x} - ${num(b.lo)}) * ${num(norm)})::BIGINT, ${b.bins - 1})`;
}

/** The guess corrected against the edges lo + j * step. */
function binFromGuess(x: string, guess: string, b: Binning): string {
  const step = (b.hi - b.lo) / b.bins;
  const edge = (j: string) => `(${j} * ${num(step)} + ${num(b.lo)})`;
  return (
    `CASE WHEN ${x} < ${edge(guess)} THEN ${guess} - 1 ` +
    `WHEN ${guess} <> ${b.bins - 1} AND ${x} >= ${edge(`(${guess} + 1)`)} THEN ${guess} + 1 ` +
    `ELSE ${guess} END`
  );
}

interface PassThree {
  histogram: HistogramBin[];
  zScore: number;
  iqr: number;
  skewness: number | null;
  kurtosis: number | null;
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

async function passThree(
  pool: SourcePool,
  items: { c: ProfiledColumn; one: PassOne; distinct: number }[],
): Promise<Map<number, PassThree>> {
  const result = new Map<number, PassThree>();
  const parts: string[] = [];
  // The inner query computes each column's value, deviation and bin guess once per row.
  const inner: string[] = [];
  const binnings = new Map<number, Binning>();
  for (const { c, one, distinct } of items) {
    const p = `c${c.index}_`;
    const x = `x${c.index}`;
    inner.push(`${c.expr} AS ${x}`, `${c.expr} - ${num(one.mean!)} AS d${c.index}`);
    const [lo, hi] = [one.min!, one.max!];
    const q1 = one.quantiles![1]!;
    const q3 = one.quantiles![3]!;
    const spread = IQR_FACTOR * (q3 - q1);
    parts.push(
      `count_if(${x} < ${num(q1 - spread)} OR ${x} > ${num(q3 + spread)})::DOUBLE AS ${p}iqr`,
    );
    const d = `d${c.index}`;
    parts.push(
      `sum(${d} * ${d}) AS ${p}m2`,
      `sum(${d} * ${d} * ${d}) AS ${p}m3`,
      `sum(${d} * ${d} * ${d} * ${d}) AS ${p}m4`,
    );
    if (one.sd && one.sd > 0) {
      parts.push(`count_if(abs(${d}) > ${num(Z_SCORE_LIMIT * one.sd)})::DOUBLE AS ${p}z`);
    }
    if (hi > lo) {
      const binning = { lo, hi, bins: Math.max(1, Math.min(MAX_HISTOGRAM_BINS, distinct)) };
      binnings.set(c.index, binning);
    }
  }
  if (parts.length === 0) return result;
  // Moments and outlier counts in one scan; each histogram as its own GROUP BY (DuckDB's
  // histogram() aggregate is several times slower), spread over the pool.
  const [first, ...binRows] = await pool.run<Row | Row[]>([
    async (x) =>
      queryOne(x, `SELECT ${parts.join(', ')} FROM (SELECT ${inner.join(', ')} FROM src)`),
    ...[...binnings.entries()].map(([index, binning]) => async (x: DuckDBConnection) => {
      const c = items.find((i) => i.c.index === index)!.c;
      // least() skips NULLs, so missing values must be filtered out before binning.
      return queryRows(
        x,
        `SELECT ${binFromGuess('v', 'g', binning)} AS b, count(*)::DOUBLE AS n
         FROM (SELECT ${c.expr} AS v, ${binGuess(c.expr, binning)} AS g FROM src WHERE ${c.expr} IS NOT NULL)
         GROUP BY 1`,
      );
    }),
  ]);
  const row = (first ?? {}) as Row;
  const bins = new Map([...binnings.keys()].map((index, k) => [index, binRows[k] as Row[]]));
  for (const { c, one } of items) {
    const p = `c${c.index}_`;
    const binning = binnings.get(c.index);
    let histogram: HistogramBin[];
    if (binning) {
      const step = (binning.hi - binning.lo) / binning.bins;
      const counts = new Array<number>(binning.bins).fill(0);
      for (const r of bins.get(c.index) ?? []) {
        const k = toNumber(r.b);
        if (k !== null && k >= 0 && k < binning.bins) counts[k] = toNumber(r.n) ?? 0;
      }
      histogram = counts.map((count, j) => ({
        start: j * step + binning.lo,
        end: j === binning.bins - 1 ? binning.hi : (j + 1) * step + binning.lo,
        count,
      }));
    } else {
      // A constant column: numpy puts every value in one bin around it.
      histogram = [{ start: one.min! - 0.5, end: one.max! + 0.5, count: one.count }];
    }
    const shape = shapeFromCentralSums(
      one.count,
      toNumber(row[p + 'm2']) ?? 0,
      toNumber(row[p + 'm3']) ?? 0,
      toNumber(row[p + 'm4']) ?? 0,
    );
    result.set(c.index, {
      ...shape,
      histogram,
      zScore: toNumber(row[p + 'z']) ?? 0,
      iqr: toNumber(row[p + 'iqr']) ?? 0,
    });
  }
  return result;
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/** Exact quantiles of one column (linear interpolation); an aggregate DuckDB runs on one thread. */
async function quantiles(conn: DuckDBConnection, c: ProfiledColumn): Promise<number[]> {
  const row = await queryOne(
    conn,
    `SELECT quantile_cont(${c.expr}, [${QUANTILES.join(', ')}]) AS q FROM src`,
  );
  return Array.isArray(row.q) ? row.q.map((v) => toNumber(v) ?? NaN) : [];
}

/** Profiles of every column of `src` (rowCount rows). */
export async function profileColumns(
  conn: DuckDBConnection,
  columns: ProfiledColumn[],
  rowCount: number,
  pool: SourcePool,
): Promise<ColumnProfile[]> {
  if (columns.length === 0) return [];
  // Pass one, the quantiles and the value counts do not depend on each other: all of them go
  // to the pool at once (a column without values gets an empty answer).
  const numeric = columns.filter((c) => c.family === 'numeric');
  const counted = columns.filter((c) => c.family !== 'unsupported');
  const [passOne, ...results] = await pool.run<Row | number[] | ValueCounts>([
    async (x) => (await queryRows(x, passOneSql(columns)))[0] ?? {},
    ...numeric.map((c) => (x: DuckDBConnection) => quantiles(x, c)),
    ...counted.map((c) => (x: DuckDBConnection) => valueCounts(x, c)),
  ]);
  const ones = columns.map((c) => readPassOne(passOne as Row, c));
  numeric.forEach((c, k) => {
    ones[c.index]!.quantiles = results[k] as number[];
  });
  const countsByIndex = new Map(
    counted.map((c, k) => [c.index, results[numeric.length + k] as ValueCounts]),
  );
  const counts: ValueCounts[] = columns.map((c) =>
    ones[c.index]!.count > 0
      ? (countsByIndex.get(c.index) ?? { distinct: 0, unique: 0, top: [] })
      : { distinct: 0, unique: 0, top: [] },
  );
  const numericItems = columns
    .map((c, i) => ({ c, one: ones[i]!, distinct: counts[i]!.distinct }))
    .filter((x) => x.c.family === 'numeric' && x.one.count > 0);
  const three = await passThree(pool, numericItems);

  return columns.map((c, i) => {
    const one = ones[i]!;
    const vc = counts[i]!;
    const missing = rowCount - one.count;
    const topValues: ValueCount[] = vc.top.map((t) => ({
      value: t.value as ValueCount['value'],
      count: t.count,
      share: share(t.count, one.count),
    }));
    const profile: ColumnProfile = {
      name: c.name,
      storageType: c.type,
      kind: finalKind(c.family, {
        distinct: vc.distinct,
        min: one.min,
        max: one.max,
        meanLength: one.meanLength,
      }),
      count: one.count,
      missing,
      missingShare: share(missing, rowCount),
      distinct: vc.distinct,
      distinctShare: share(vc.distinct, one.count),
      unique: vc.unique,
      topValues,
    };
    const t = three.get(c.index);
    if (c.family === 'numeric' && one.count > 0 && t) {
      profile.numeric = numericStats(one, t);
    }
    if (c.family === 'string' && one.count > 0) {
      profile.text = {
        minLength: one.minLength!,
        meanLength: one.meanLength!,
        maxLength: one.maxLength!,
        blank: one.blank!,
      };
    }
    if (c.family === 'datetime' && one.count > 0) {
      profile.datetime = { min: one.minText!, max: one.maxText! };
    }
    if (c.family === 'boolean') {
      profile.boolean = { trueCount: one.trueCount!, falseCount: one.count - one.trueCount! };
    }
    return profile;
  });
}

function numericStats(one: PassOne, t: PassThree): NumericStats {
  const q = one.quantiles!;
  const [p5, p25, p50, p75, p95] = [q[0]!, q[1]!, q[2]!, q[3]!, q[4]!];
  const sd = one.sd ?? null;
  const iqr = p75 - p25;
  return {
    min: one.min!,
    max: one.max!,
    mean: one.mean!,
    sd,
    variance: one.variance ?? null,
    sum: one.sum!,
    quantiles: { p5, p25, p50, p75, p95 },
    iqr,
    range: one.max! - one.min!,
    skewness: t.skewness,
    kurtosis: t.kurtosis,
    cv: sd !== null && one.mean !== 0 ? sd / one.mean! : null,
    zeros: one.zeros!,
    zerosShare: share(one.zeros!, one.count),
    negatives: one.negatives!,
    histogram: t.histogram,
    outliers: {
      zScore: t.zScore,
      iqr: t.iqr,
      iqrLower: p25 - IQR_FACTOR * iqr,
      iqrUpper: p75 + IQR_FACTOR * iqr,
    },
  };
}
