import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, type DuckDb } from './duckdb';
import type { ColumnInfo } from './ingest';
import { literal, parquet } from './sql';

/**
 * Independent queries over the same source, run on up to `size` connections at once. Some
 * DuckDB aggregates (exact quantiles, for one) run on one thread each, so two of them side by
 * side use both cores.
 */
export interface SourcePool {
  run<T>(tasks: ((conn: DuckDBConnection) => Promise<T>)[]): Promise<T[]>;
  /** The tasks run on the caller's connection, which must then not run anything beside them. */
  readonly sharesConnection: boolean;
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
      sharesConnection: false,
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
          Array.from({ length: Math.min(db.connections, tasks.length) }, () =>
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
  sharesConnection: true,
  async run(tasks) {
    const out = [];
    for (const t of tasks) out.push(await t(conn));
    return out;
  },
});
