import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnProfile, Correlations } from '../../../common/teams/data';
import { queryOne, toNumber } from './duckdb';
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

/** The numeric columns a correlation matrix covers: numeric storage, at least two values. */
export function correlationColumns(columns: ColumnProfile[]): {
  names: string[];
  truncated: boolean;
} {
  const eligible = columns.filter((c) => c.numeric !== undefined && c.distinct > 1 && c.count >= 2);
  return {
    names: eligible.slice(0, MAX_CORRELATION_COLUMNS).map((c) => c.name),
    truncated: eligible.length > MAX_CORRELATION_COLUMNS,
  };
}

const square = (k: number, diagonal: number | null) =>
  Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => (i === j ? diagonal : (null as number | null))),
  );

const finite = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);

export async function correlations(
  conn: DuckDBConnection,
  columns: ColumnProfile[],
  rowCount: number,
): Promise<Correlations> {
  const { names, truncated } = correlationColumns(columns);
  const k = names.length;
  const pearson = square(k, 1);
  const spearman = square(k, 1);
  const sampled = rowCount > SPEARMAN_EXACT_ROWS;
  if (k < 2) return { columns: names, pearson, spearman, spearmanSampleRows: null, truncated };
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) pairs.push([i, j]);
  const x = (i: number) => `${ident(names[i]!)}::DOUBLE`;
  const set = (m: (number | null)[][], i: number, j: number, v: number | null) => {
    m[i]![j] = finite(v);
    m[j]![i] = finite(v);
  };

  // Pearson: every pair in one scan (DuckDB's corr skips rows where either value is NULL).
  const p = await queryOne(
    conn,
    `SELECT ${pairs.map(([i, j]) => `corr(${x(i)}, ${x(j)}) AS p${i}_${j}`).join(', ')} FROM src`,
  );
  for (const [i, j] of pairs) set(pearson, i, j, toNumber(p[`p${i}_${j}`]));

  // Spearman in JavaScript over at most SPEARMAN_EXACT_ROWS rows: every row of smaller tables,
  // else every step-th row by position in the file (an even, repeatable sample). Ranking is a
  // sort, which DuckDB's window functions do several times slower than a typed-array sort.
  const step = sampled ? Math.ceil(rowCount / SPEARMAN_EXACT_ROWS) : 1;
  const reader = await conn.runAndReadAll(
    `SELECT ${names.map((_, i) => `${x(i)} AS c${i}`).join(', ')} FROM src_numbered` +
      (step > 1 ? ` WHERE __row % ${step} = 0` : ''),
  );
  const columnsJs = reader.getColumnsJS();
  const arrays = columnsJs.map((values) =>
    Float64Array.from(values, (v) => (typeof v === 'number' ? v : NaN)),
  );
  const matrix = spearmanMatrix(arrays);
  for (const [i, j] of pairs) set(spearman, i, j, matrix[i]![j] ?? null);
  const spearmanSampleRows = sampled ? (arrays[0]?.length ?? 0) : null;
  return { columns: names, pearson, spearman, spearmanSampleRows, truncated };
}
