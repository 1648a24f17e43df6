import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnProfile, Correlations } from '../../../common/teams/data';
import { queryOne, toNumber } from './duckdb';
import { ident } from './sql';

/**
 * Pearson and Spearman correlations between numeric columns, as pandas computes them
 * (`df.corr()` and `df.corr('spearman')`): each pair on the rows where both values are present,
 * Spearman as the Pearson correlation of average ranks (ties share the mean of their ranks).
 */

export const MAX_CORRELATION_COLUMNS = 30;
const PAIRS_PER_STATEMENT = 40;

/** Average rank of x among the rows of the relation (1-based; ties get the mean rank). */
const avgRank = (x: string) =>
  `(rank() OVER (ORDER BY ${x}) + count(*) OVER (ORDER BY ${x} RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) / 2.0`;

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
): Promise<Correlations> {
  const { names, truncated } = correlationColumns(columns);
  const k = names.length;
  const pearson = square(k, 1);
  const spearman = square(k, 1);
  if (k < 2) return { columns: names, pearson, spearman, truncated };
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

  // Spearman: columns without missing values are ranked once over all rows; a pair with a
  // column that has gaps is ranked again on its own complete rows (pandas' pairwise rule).
  const byName = new Map(columns.map((c) => [c.name, c]));
  const complete = names.map((n) => (byName.get(n)?.missing ?? 0) === 0);
  const full = names.map((_, i) => i).filter((i) => complete[i]);
  if (full.length >= 2) {
    const ranks = full.map((i) => `${avgRank(x(i))} AS r${i}`).join(', ');
    const fullPairs = pairs.filter(([i, j]) => complete[i] && complete[j]);
    const s = await queryOne(
      conn,
      `SELECT ${fullPairs.map(([i, j]) => `corr(r${i}, r${j}) AS s${i}_${j}`).join(', ')} FROM (SELECT ${ranks} FROM src)`,
    );
    for (const [i, j] of fullPairs) set(spearman, i, j, toNumber(s[`s${i}_${j}`]));
  }
  // One statement per batch of pairs: each pair is its own subquery (own filter, own ranks).
  const gappy = pairs.filter(([i, j]) => !(complete[i] && complete[j]));
  for (let start = 0; start < gappy.length; start += PAIRS_PER_STATEMENT) {
    const batch = gappy.slice(start, start + PAIRS_PER_STATEMENT);
    const selects = batch.map(
      ([i, j]) =>
        `(SELECT corr(ra, rb) FROM (SELECT ${avgRank(x(i))} AS ra, ${avgRank(x(j))} AS rb FROM src ` +
        `WHERE ${ident(names[i]!)} IS NOT NULL AND ${ident(names[j]!)} IS NOT NULL)) AS s${i}_${j}`,
    );
    const s = await queryOne(conn, `SELECT ${selects.join(', ')}`);
    for (const [i, j] of batch) set(spearman, i, j, toNumber(s[`s${i}_${j}`]));
  }
  return { columns: names, pearson, spearman, truncated };
}
