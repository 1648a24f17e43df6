import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetProfile } from '../../../common/teams/data';
import { computeAlerts } from './alerts';
import { familyOf, profiledColumns } from './columns';
import { candidateCorrelations, correlationCandidates, selectCorrelations } from './correlations';
import { queryOne, toNumber, type DuckDb } from './duckdb';
import type { ColumnInfo } from './ingest';
import { serialPool, withSource, type SourcePool } from './source';
import { profileColumns, TOP_VALUES, type ValueCounts } from './stats';
import { profileTimeSeries, startTimeSeries } from './timeseries';

/**
 * The whole profile of a stored dataset (ydata-profiling's core): per-column statistics,
 * duplicate rows, correlations, the time dimension and alerts.
 */

export async function profileSource(
  conn: DuckDBConnection,
  info: ColumnInfo[],
  pool: SourcePool = serialPool(conn),
): Promise<DatasetProfile> {
  const rowCount = toNumber((await queryOne(conn, 'SELECT count(*) AS n FROM src')).n) ?? 0;
  // Correlations need only the storage types to start: they run beside the column statistics.
  const candidates = correlationCandidates(info);
  const numericCount = info.filter((c) => familyOf(c.type) === 'numeric').length;
  const matrices = candidateCorrelations(pool, candidates, numericCount, rowCount);
  matrices.catch(() => undefined); // awaited below; a failure surfaces there
  // So does the period table of a date column, on this connection (idle meanwhile) unless the
  // pool's tasks run on it too.
  const early = pool.sharesConnection
    ? Promise.resolve(null)
    : startTimeSeries(conn, info, TOP_VALUES);
  early.catch(() => undefined);
  const given = new Map<string, Promise<ValueCounts | null>>();
  const date = info.find((c) => familyOf(c.type) === 'datetime');
  if (date?.type.toUpperCase() === 'DATE' && !pool.sharesConnection) {
    given.set(
      date.name,
      early.then((e) => e?.dateCounts ?? null),
    );
  }
  const columns = await profileColumns(conn, profiledColumns(info), rowCount, pool, given);
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

export function profileFile(db: DuckDb, file: string): Promise<DatasetProfile> {
  return withSource(db, file, profileSource);
}
