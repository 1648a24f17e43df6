import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetProfile } from '../../../common/teams/data';
import { computeAlerts } from './alerts';
import { familyOf, profiledColumns } from './columns';
import { correlationCandidates, selectCorrelations, startCorrelations } from './correlations';
import { queryOne, toNumber, type DuckDb } from './duckdb';
import type { ColumnInfo } from './ingest';
import { withMissingTokens } from './missing-tokens';
import { withSource, type SourcePool } from './source';
import { notRowCounters, profileColumns, TOP_VALUES, type ValueCounts } from './stats';
import { profileTimeSeries, startTimeSeries } from './timeseries';

/**
 * The whole profile of a stored dataset (ydata-profiling's core): per-column statistics,
 * duplicate rows, correlations, the time dimension and alerts.
 */

export async function profileSource(
  conn: DuckDBConnection,
  info: ColumnInfo[],
  pool: SourcePool,
): Promise<DatasetProfile> {
  const rowCount = toNumber((await queryOne(conn, 'SELECT count(*) AS n FROM src')).n) ?? 0;
  // Every query goes through the pool's one queue, at most one per core at a time, in this
  // order: correlations (they need only the storage types), the period table of a date column,
  // then the columns' statistics.
  const candidates = correlationCandidates(info);
  const numericCount = info.filter((c) => familyOf(c.type) === 'numeric').length;
  const { sample, matrices } = startCorrelations(pool, candidates, numericCount, rowCount);
  matrices.catch(() => undefined); // awaited below; a failure surfaces there
  const early = pool.run([(c) => startTimeSeries(c, info, TOP_VALUES)]).then(([e]) => e ?? null);
  early.catch(() => undefined);
  const given = new Map<string, Promise<ValueCounts | null>>();
  const date = info.find((c) => familyOf(c.type) === 'datetime');
  if (date?.type.toUpperCase() === 'DATE') {
    given.set(
      date.name,
      early.then((e) => e?.dateCounts ?? null),
    );
  }
  // The numeric columns with many distinct values first: they take longest, and the queue
  // should not end on one of them running alone. The estimates come from the Spearman sample,
  // which arrives while the correlations and the period table still hold both connections.
  // The sample also rules out most integer columns as row counters (see notRowCounters).
  const seen = await sample.catch(() => null); // the same failure surfaces with the matrices
  const columns = await profileColumns(conn, profiledColumns(info), rowCount, pool, {
    given,
    cost: seen ? distinctEstimates(candidates, seen.columns) : new Map<string, number>(),
    notRowCounters: seen ? notRowCounters(candidates, seen) : new Set<string>(),
  });
  // Exact duplicates of an earlier row: rows minus distinct rows. A column with a different
  // value in every row (an id) already proves there are none, without hashing whole rows.
  const keyColumn = columns.some((c) => c.missing === 0 && c.distinct === rowCount);
  const [distinctRows, timeSeries, raw] = await Promise.all([
    keyColumn
      ? rowCount
      : pool
          .run([(c) => queryOne(c, 'SELECT count(*) AS n FROM (SELECT DISTINCT * FROM src)')])
          .then(([row]) => toNumber(row?.n) ?? rowCount),
    early.then((e) => profileTimeSeries(conn, columns, e)),
    matrices,
  ]);
  const duplicateRows = rowCount - distinctRows;
  const corr = selectCorrelations(raw, columns);

  const missingCells = columns.reduce((s, c) => s + c.missing, 0);
  const cells = rowCount * columns.length;
  const kinds: Record<string, number> = {};
  for (const c of columns) kinds[c.kind] = (kinds[c.kind] ?? 0) + 1;
  return {
    rowCount,
    columnCount: columns.length,
    missingCells,
    missingCellsShare: cells > 0 ? missingCells / cells : 0,
    duplicateRows,
    duplicateRowsShare: rowCount > 0 ? duplicateRows / rowCount : 0,
    kinds,
    columns,
    correlations: corr,
    timeSeries,
    alerts: computeAlerts(columns, corr, { rowCount, duplicateRows }),
  };
}

/** Rows of the sample looked at for the estimates: enough to tell 100,000 distinct from 1,000,000. */
const ESTIMATE_ROWS = 8192;

/** Distinct values among the first ESTIMATE_ROWS sampled values of each column. */
function distinctEstimates(names: string[], sample: Float64Array[]): Map<string, number> {
  return new Map(
    names.map((name, i) => [name, new Set(sample[i]!.subarray(0, ESTIMATE_ROWS)).size]),
  );
}

/** The profile of a Parquet copy, with the missing-value tokens it was loaded with. */
export async function profileFile(db: DuckDb, file: string): Promise<DatasetProfile> {
  return withMissingTokens(await withSource(db, file, profileSource), file);
}
