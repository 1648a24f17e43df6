import type { ColumnProfile, Correlations } from '../../../common/teams/data';
import { familyOf } from './columns';
import { queryOne, readDoubleColumns, toNumber } from './duckdb';
import type { SourcePool } from './source';
import { ident, num } from './sql';
import { spearmanMatrix } from './spearman';

/**
 * Pearson and Spearman correlations between numeric columns, as pandas computes them
 * (`df.corr()` and `df.corr('spearman')`): each pair on the rows where both values are present,
 * Spearman as the Pearson correlation of average ranks (ties share the mean of their ranks).
 */

export const MAX_CORRELATION_COLUMNS = 30;
/**
 * Above this many rows Spearman is computed on an even sample of at most this many rows (every
 * k-th row of the file: repeatable, and spread over the whole file). Ranking is a sort per
 * column and pair; on a million rows it would cost more than the rest of the profile. The
 * profile says so in `spearmanSampleRows`. Pearson always uses every row.
 */
export const SPEARMAN_EXACT_ROWS = 50_000;

/**
 * Columns a matrix may cover, known before any statistics: the first numeric columns by
 * storage type (a few more than MAX_CORRELATION_COLUMNS, as constant ones drop out later).
 */
export function correlationCandidates(info: { name: string; type: string }[]): string[] {
  return info
    .filter((c) => familyOf(c.type) === 'numeric')
    .slice(0, MAX_CORRELATION_COLUMNS + 10)
    .map((c) => c.name);
}

const square = (k: number, diagonal: number | null) =>
  Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => (i === j ? diagonal : (null as number | null))),
  );

const finite = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);

/** The candidates' values in every step-th row of the file (row 0, step, 2 step, ...), NULL as NaN. */
export interface SpearmanSample {
  columns: Float64Array[];
  step: number;
}

interface RawMatrices {
  names: string[];
  /**
   * Pearson of the pairs where either column has missing values: DuckDB's corr on the rows
   * where both are present. Pairs without missing values are finished from crossSums.
   */
  pearson: (number | null)[][];
  /**
   * For pairs of columns without missing values (null elsewhere): the sum over every row of
   * (x - shift_x)(y - shift_y), which the columns' means and variances turn into Pearson's r
   * (see pearsonFromCrossSum).
   */
  crossSums: (number | null)[][];
  shifts: number[];
  spearman: (number | null)[][];
  spearmanSampleRows: number | null;
  /** Numeric columns beyond the candidates. */
  beyond: boolean;
}

/** The mean of the values present (NaN stands for a missing value), or 0 when there are none. */
function presentMean(values: Float64Array): number {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isFinite(v)) {
      sum += v;
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

/**
 * Pearson (every row, one scan) and Spearman (JavaScript, at most SPEARMAN_EXACT_ROWS rows) of
 * the candidate columns, started on the pool before the column statistics are in. `sample` is
 * the candidates' Spearman sample as soon as it is read (null with fewer than two candidates),
 * for whoever can use it early; `matrices` the result.
 *
 * Pearson of a pair without missing values needs only the sum of the products of the two
 * columns' deviations: their means and variances come with the column statistics. DuckDB's corr
 * updates three running moments per row and pair (7-8 ms per pair at a million rows); a plain sum
 * of products costs about 4.5. The products are taken from the sample's means rather than from
 * zero, so no digits are lost when a mean is large against the spread (years, price levels).
 */
export function startCorrelations(
  pool: SourcePool,
  candidates: string[],
  allNumeric: number,
  rowCount: number,
): { sample: Promise<SpearmanSample | null>; matrices: Promise<RawMatrices> } {
  const k = candidates.length;
  const pearson = square(k, 1);
  const crossSums = square(k, null);
  const spearman = square(k, 1);
  const sampled = rowCount > SPEARMAN_EXACT_ROWS;
  const beyond = allNumeric > k;
  const empty = { names: candidates, pearson, crossSums, shifts: [], spearman, beyond };
  if (k < 2) {
    return {
      sample: Promise.resolve(null),
      matrices: Promise.resolve({ ...empty, spearmanSampleRows: null }),
    };
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) pairs.push([i, j]);
  const x = (i: number) => `${ident(candidates[i]!)}::DOUBLE`;
  const set = (m: (number | null)[][], i: number, j: number, v: number | null) => {
    m[i]![j] = finite(v);
    m[j]![i] = finite(v);
  };
  // Spearman's rows: every row of smaller tables, else every step-th row by position in the
  // file (an even, repeatable sample). Ranking is a sort, which DuckDB's window functions do
  // several times slower than a typed-array sort.
  const step = sampled ? Math.ceil(rowCount / SPEARMAN_EXACT_ROWS) : 1;
  // One task: the sample first (the ranking starts as soon as it is in, beside the Pearson
  // scan), then the Pearson scan, which takes its shifts from the sample.
  let sampleRead!: (sample: SpearmanSample) => void;
  let sampleFailed!: (e: unknown) => void;
  const sample = new Promise<SpearmanSample>((resolve, reject) => {
    sampleRead = resolve;
    sampleFailed = reject;
  });
  const scanned = pool
    .run([
      async (c) => {
        let columns: Float64Array[];
        try {
          columns = await readDoubleColumns(
            c,
            `SELECT ${candidates.map((_, i) => `${x(i)} AS c${i}`).join(', ')} FROM src_numbered` +
              (step > 1 ? ` WHERE __row % ${step} = 0` : ''),
            k,
          );
        } catch (e) {
          sampleFailed(e);
          throw e;
        }
        sampleRead({ columns, step });
        const shifts = columns.map(presentMean);
        // A column with a gap in the sample has missing values; one without is taken to have
        // none (every row is in the sample below SPEARMAN_EXACT_ROWS), and its count in the same
        // scan checks that. Where a gap was missed, those pairs are computed again with corr.
        const full = columns.map((values) => values.every((v) => !Number.isNaN(v)));
        const d = (i: number) => `d${i}`;
        const sums = (use: (i: number, j: number) => boolean) =>
          pairs.map(([i, j]) =>
            use(i, j)
              ? `sum(${d(i)} * ${d(j)}) AS s${i}_${j}`
              : `corr(${d(i)}, ${d(j)}) AS p${i}_${j}`,
          );
        const counts = full.flatMap((f, i) => (f ? [`count(${d(i)}) AS n${i}`] : []));
        const deviations = `(SELECT ${candidates.map((_, i) => `${x(i)} - ${num(shifts[i]!)} AS ${d(i)}`).join(', ')} FROM src)`;
        const row = await queryOne(
          c,
          `SELECT ${[...sums((i, j) => full[i]! && full[j]!), ...counts].join(', ')} FROM ${deviations}`,
        );
        const missed = full.map((f, i) => f && toNumber(row[`n${i}`]) !== rowCount);
        if (missed.some(Boolean)) {
          const again = pairs.filter(([i, j]) => missed[i] || missed[j]);
          const fixed = await queryOne(
            c,
            `SELECT ${again.map(([i, j]) => `corr(${d(i)}, ${d(j)}) AS p${i}_${j}`).join(', ')} FROM ${deviations}`,
          );
          for (const [i, j] of again) {
            delete row[`s${i}_${j}`];
            row[`p${i}_${j}`] = fixed[`p${i}_${j}`] ?? null;
          }
        }
        return { row, shifts };
      },
    ])
    .then(([result]) => result!);
  sample.catch(() => undefined); // a failure surfaces with the matrices
  const ranked = sample.then(async ({ columns }) => {
    const matrix = await spearmanMatrix(columns);
    for (const [i, j] of pairs) set(spearman, i, j, matrix[i]![j] ?? null);
  });
  const matrices = Promise.all([scanned, sample, ranked]).then(([{ row, shifts }, { columns }]) => {
    for (const [i, j] of pairs) {
      if (`s${i}_${j}` in row) set(crossSums, i, j, toNumber(row[`s${i}_${j}`]));
      else set(pearson, i, j, toNumber(row[`p${i}_${j}`]));
    }
    return {
      ...empty,
      shifts,
      spearmanSampleRows: sampled ? (columns[0]?.length ?? 0) : null,
    };
  });
  return { sample, matrices };
}

/**
 * Pearson's r of two columns without missing values from the sum of their deviations' products
 * taken from shifts a and b: with n rows, means m and sample variances v,
 * r = (S - n (m_x - a)(m_y - b)) / ((n - 1) sqrt(v_x v_y)).
 */
export function pearsonFromCrossSum(
  sum: number,
  n: number,
  x: { mean: number; variance: number | null; shift: number },
  y: { mean: number; variance: number | null; shift: number },
): number | null {
  if (n < 2 || !x.variance || !y.variance) return null;
  const r =
    (sum - n * (x.mean - x.shift) * (y.mean - y.shift)) /
    ((n - 1) * Math.sqrt(x.variance * y.variance));
  return Number.isFinite(r) ? Math.max(-1, Math.min(1, r)) : null;
}

/** The matrices on the columns that qualify (numeric, at least two values), at most the cap. */
export function selectCorrelations(raw: RawMatrices, columns: ColumnProfile[]): Correlations {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const eligible = raw.names
    .map((name, i) => ({ name, i }))
    .filter(({ name }) => {
      const c = byName.get(name);
      return c?.numeric !== undefined && c.distinct > 1 && c.count >= 2;
    });
  const kept = eligible.slice(0, MAX_CORRELATION_COLUMNS);
  const pick = (m: (number | null)[][]) => kept.map((a) => kept.map((b) => m[a.i]![b.i] ?? null));
  const pearson = kept.map((a) =>
    kept.map((b) => {
      const sum = raw.crossSums[a.i]![b.i];
      if (sum === null || sum === undefined) return raw.pearson[a.i]![b.i] ?? null;
      const stats = (i: number, name: string) => {
        const c = byName.get(name)!;
        return { mean: c.numeric!.mean, variance: c.numeric!.variance, shift: raw.shifts[i]! };
      };
      return pearsonFromCrossSum(
        sum,
        byName.get(a.name)!.count,
        stats(a.i, a.name),
        stats(b.i, b.name),
      );
    }),
  );
  return {
    columns: kept.map((k) => k.name),
    pearson,
    spearman: pick(raw.spearman),
    spearmanSampleRows: kept.length >= 2 ? raw.spearmanSampleRows : null,
    truncated: eligible.length > MAX_CORRELATION_COLUMNS || raw.beyond,
  };
}
