import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, type DuckDb } from './duckdb';
import type { ColumnInfo } from './ingest';
import { literal, parquet } from './sql';

/**
 * Independent queries over the same source, on up to `connections` connections at once. Some
 * DuckDB aggregates (exact quantiles, for one) run on one thread each, so two of them side by
 * side use both cores. Every `run` of a pool shares one queue and the same connections, in the
 * order the tasks were handed in: callers running at once (the correlations, the period table
 * and the column statistics) take turns instead of each opening connections of their own, which
 * put four or five single-threaded queries on two cores and left the longest task of the profile
 * to finish last, at half speed.
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
    // Fresh connections only: the caller's own connection may be busy meanwhile.
    const toClose: DuckDBConnection[] = [];
    const free: DuckDBConnection[] = [];
    const waiting: ((c: DuckDBConnection | Error) => void)[] = [];
    let opened = 0; // usable connections and those being opened
    // One more connection. If it cannot be opened, the next task in the queue tries again, so
    // no task waits for a connection that will never come.
    const openOne = async (): Promise<DuckDBConnection> => {
      opened++;
      try {
        const c = await db.connect();
        toClose.push(c);
        await open(c);
        return c;
      } catch (e) {
        opened--;
        const next = waiting.shift();
        if (next) {
          openOne().then(next, (e2: unknown) =>
            next(e2 instanceof Error ? e2 : new Error(String(e2))),
          );
        }
        throw e;
      }
    };
    const acquire = (): Promise<DuckDBConnection> => {
      const idle = free.pop();
      if (idle) return Promise.resolve(idle);
      if (opened < db.connections) return openOne();
      return new Promise((resolve, reject) =>
        waiting.push((c) => (c instanceof Error ? reject(c) : resolve(c))),
      );
    };
    const release = (c: DuckDBConnection) => {
      const next = waiting.shift();
      if (next) next(c);
      else free.push(c);
    };
    const running = new Set<Promise<unknown>>();
    const pool: SourcePool = {
      run: (tasks) =>
        Promise.all(
          tasks.map((task) => {
            const done = (async () => {
              const c = await acquire();
              try {
                return await task(c);
              } finally {
                release(c);
              }
            })();
            running.add(done);
            void done.catch(() => undefined).finally(() => running.delete(done));
            return done;
          }),
        ),
    };
    try {
      return await fn(conn, columns, pool);
    } finally {
      // A failed task fails its run at once; the others finish before their connections close.
      await Promise.allSettled([...running]);
      for (const c of toClose) c.closeSync();
    }
  });
}
