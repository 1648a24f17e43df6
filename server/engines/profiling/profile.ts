import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetProfile } from '../../../common/teams/data';
import { computeAlerts } from './alerts';
import { familyOf, profiledColumns } from './columns';
import { candidateCorrelations, correlationCandidates, selectCorrelations } from './correlations';
import { queryOne, queryRows, toNumber, type DuckDb } from './duckdb';
import type { ColumnInfo } from './ingest';
import { literal, parquet } from './sql';
import { profileColumns } from './stats';
import { profileTimeSeries } from './timeseries';

/**
 * The whole profile of a stored dataset (ydata-profiling's core): per-column statistics,
 * duplicate rows, correlations, the time dimension and alerts.
 */

/**
 * Independent queries over the same source, run on up to `size` connections at once. Some
 * DuckDB aggregates (exact quantiles, for one) run on one thread each, so two of them side by
 * side use both cores.
 */
export interface SourcePool {
  run<T>(tasks: ((conn: DuckDBConnection) => Promise<T>)[]): Promise<T[]>;
}

/** Runs `fn` on a connection where the view `src` reads the Parquet file. */
export async function withSource<T>(
  db: DuckDb,
  file: string,
  fn: (conn: DuckDBConnection, columns: ColumnInfo[], pool: SourcePool) => Promise<T>,
): Promise<T> {
  // src_numbered adds each row's position in the file, for repeatable even samples.
  const open = async (conn: DuckDBConnection) => {
    await conn.run(`CREATE OR REPLACE TEMP VIEW src AS SELECT * FROM ${parquet(file)}`);
    await conn.run(
      `CREATE OR REPLACE TEMP VIEW src_numbered AS SELECT *, file_row_number AS __row FROM read_parquet(${literal(file)}, file_row_number = true)`,
    );
  };
  return db.withConnection(async (conn) => {
    await open(conn);
    const described = await queryRows(conn, 'DESCRIBE src');
    const columns = described.map((r) => ({
      name: String(r.column_name),
      type: String(r.column_type),
    }));
    const pool: SourcePool = {
      async run(tasks) {
        const results: unknown[] = new Array(tasks.length);
        let next = 0;
        const worker = async (c: DuckDBConnection) => {
          while (next < tasks.length) {
            const i = next++;
            results[i] = await tasks[i]!(c);
          }
        };
        // Fresh connections only: the caller's own connection may be busy meanwhile.
        await Promise.all(
          Array.from({ length: Math.min(db.threads, tasks.length) }, () =>
            db.withConnection(async (c) => {
              await open(c);
              await worker(c);
            }),
          ),
        );
        return results as Awaited<ReturnType<(typeof tasks)[number]>>[];
      },
    };
    return fn(conn, columns, pool);
  });
}

/** A pool that runs its tasks one after another on one connection. */
export const serialPool = (conn: DuckDBConnection): SourcePool => ({
  async run(tasks) {
    const out = [];
    for (const t of tasks) out.push(await t(conn));
    return out;
  },
});

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
  const columns = await profileColumns(conn, profiledColumns(info), rowCount, pool);
  // Exact duplicates of an earlier row: rows minus distinct rows. A column with a different
  // value in every row (an id) already proves there are none, without hashing whole rows.
  const keyColumn = columns.some((c) => c.missing === 0 && c.distinct === rowCount);
  const [distinctRows, timeSeries, raw] = await Promise.all([
    keyColumn
      ? rowCount
      : pool
          .run([(c) => queryOne(c, 'SELECT count(*) AS n FROM (SELECT DISTINCT * FROM src)')])
          .then(([row]) => toNumber(row?.n) ?? rowCount),
    profileTimeSeries(conn, columns),
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
