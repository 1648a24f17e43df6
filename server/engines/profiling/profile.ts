import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetProfile } from '../../../common/teams/data';
import { computeAlerts } from './alerts';
import { profiledColumns } from './columns';
import { correlations } from './correlations';
import { queryOne, queryRows, toNumber, type DuckDb } from './duckdb';
import type { ColumnInfo } from './ingest';
import { parquet } from './sql';
import { profileColumns } from './stats';
import { profileTimeSeries } from './timeseries';

/**
 * The whole profile of a stored dataset (ydata-profiling's core): per-column statistics,
 * duplicate rows, correlations, the time dimension and alerts.
 */

/** Runs `fn` on a connection where the view `src` reads the Parquet file. */
export async function withSource<T>(
  db: DuckDb,
  file: string,
  fn: (conn: DuckDBConnection, columns: ColumnInfo[]) => Promise<T>,
): Promise<T> {
  return db.withConnection(async (conn) => {
    await conn.run(`CREATE OR REPLACE TEMP VIEW src AS SELECT * FROM ${parquet(file)}`);
    const described = await queryRows(conn, 'DESCRIBE src');
    const columns = described.map((r) => ({
      name: String(r.column_name),
      type: String(r.column_type),
    }));
    return fn(conn, columns);
  });
}

export async function profileSource(
  conn: DuckDBConnection,
  info: ColumnInfo[],
): Promise<DatasetProfile> {
  const rowCount = toNumber((await queryOne(conn, 'SELECT count(*) AS n FROM src')).n) ?? 0;
  const columns = await profileColumns(conn, profiledColumns(info), rowCount);

  // Exact duplicates of an earlier row: rows minus distinct rows.
  const distinctRows =
    toNumber((await queryOne(conn, 'SELECT count(*) AS n FROM (SELECT DISTINCT * FROM src)')).n) ??
    rowCount;
  const duplicateRows = rowCount - distinctRows;
  const corr = await correlations(conn, columns);
  const timeSeries = await profileTimeSeries(conn, columns);

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
