import type { ColumnProfile, Correlations } from '../../../common/teams/data';
import { familyOf } from './columns';
import { queryOne, readDoubleColumns, toNumber } from './duckdb';
import type { SourcePool } from './source';
import { ident } from './sql';
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

interface RawMatrices {
  names: string[];
  pearson: (number | null)[][];
  spearman: (number | null)[][];
  spearmanSampleRows: number | null;
  /** Numeric columns beyond the candidates. */
  beyond: boolean;
}

/**
 * Pearson (every row, one scan) and Spearman (JavaScript, at most SPEARMAN_EXACT_ROWS rows) of
 * the candidate columns; both start at once on the pool, before the column statistics are in.
 * `sample` is the candidates' Spearman sample as soon as it is read (null with fewer than two
 * candidates), for whoever can use it early; `matrices` the result.
 */
export function startCorrelations(
  pool: SourcePool,
  candidates: string[],
  allNumeric: number,
  rowCount: number,
): { sample: Promise<Float64Array[] | null>; matrices: Promise<RawMatrices> } {
  const k = candidates.length;
  const pearson = square(k, 1);
  const spearman = square(k, 1);
  const sampled = rowCount > SPEARMAN_EXACT_ROWS;
  const beyond = allNumeric > k;
  if (k < 2) {
    return {
      sample: Promise.resolve(null),
      matrices: Promise.resolve({
        names: candidates,
        pearson,
        spearman,
        spearmanSampleRows: null,
        beyond,
      }),
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
  // Both queries go to the pool at once; the ranking starts as soon as the sample is in
  // rather than after the (longer) Pearson scan.
  // DuckDB's corr skips the rows where either value is NULL (pandas' pairwise rule).
  const pearsonRow = pool
    .run([
      (c) =>
        queryOne(
          c,
          `SELECT ${pairs.map(([i, j]) => `corr(${x(i)}, ${x(j)}) AS p${i}_${j}`).join(', ')} FROM src`,
        ),
    ])
    .then(([row]) => row!);
  const sample = pool
    .run([
      (c) =>
        readDoubleColumns(
          c,
          `SELECT ${candidates.map((_, i) => `${x(i)} AS c${i}`).join(', ')} FROM src_numbered` +
            (step > 1 ? ` WHERE __row % ${step} = 0` : ''),
          k,
        ),
    ])
    .then(([columns]) => columns!);
  const ranked = sample.then(async (columns) => {
    const matrix = await spearmanMatrix(columns);
    for (const [i, j] of pairs) set(spearman, i, j, matrix[i]![j] ?? null);
  });
  const matrices = Promise.all([pearsonRow, sample, ranked]).then(([p, columns]) => {
    for (const [i, j] of pairs) set(pearson, i, j, toNumber(p[`p${i}_${j}`]));
    return {
      names: candidates,
      pearson,
      spearman,
      spearmanSampleRows: sampled ? (columns[0]?.length ?? 0) : null,
      beyond,
    };
  });
  return { sample, matrices };
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
  return {
    columns: kept.map((k) => k.name),
    pearson: pick(raw.pearson),
    spearman: pick(raw.spearman),
    spearmanSampleRows: kept.length >= 2 ? raw.spearmanSampleRows : null,
    truncated: eligible.length > MAX_CORRELATION_COLUMNS || raw.beyond,
  };
}
