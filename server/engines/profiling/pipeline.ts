import { rename, rm } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryOne, queryRows, toNumber } from './duckdb';
import { DataError } from './errors';
import type { ColumnInfo } from './ingest';
import { ident, literal, PARQUET_OPTIONS } from './sql';

/**
 * A chain of connection-private views, one per step of a transformation, ending in a Parquet
 * file. Every step is SQL over the previous one, so the data stays in DuckDB; `__rid` carries
 * the original row order through the chain.
 */
export class Pipeline {
  private n = 0;
  current: string;
  readonly notes: string[] = [];

  constructor(
    readonly conn: DuckDBConnection,
    start: string,
  ) {
    this.current = start;
  }

  /** Adds a step: `sql` gets the previous step's view name and returns a SELECT. */
  async step(sql: (from: string) => string): Promise<void> {
    const name = `__step${++this.n}`;
    await this.conn.run(`CREATE OR REPLACE TEMP VIEW ${name} AS ${sql(this.current)}`);
    this.current = name;
  }

  async columns(): Promise<ColumnInfo[]> {
    const rows = await queryRows(this.conn, `DESCRIBE ${this.current}`);
    return rows
      .map((r) => ({ name: String(r.column_name), type: String(r.column_type) }))
      .filter((c) => c.name !== '__rid');
  }

  async count(where = 'true'): Promise<number> {
    return (
      toNumber(
        (await queryOne(this.conn, `SELECT count(*) AS n FROM ${this.current} WHERE ${where}`)).n,
      ) ?? 0
    );
  }

  /** Writes the last step (without __rid, in row order) to `out`, atomically. */
  async write(out: string): Promise<{ rows: number; columns: ColumnInfo[] }> {
    const columns = await this.columns();
    const hasRid = (await queryRows(this.conn, `DESCRIBE ${this.current}`)).some(
      (r) => r.column_name === '__rid',
    );
    const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
    try {
      await this.conn.run(
        `COPY (SELECT ${columns.map((c) => ident(c.name)).join(', ')} FROM ${this.current}` +
          `${hasRid ? ' ORDER BY __rid' : ''}) TO ${literal(tmp)} (${PARQUET_OPTIONS})`,
      );
      await rename(tmp, out);
    } catch (e) {
      throw asDataError(e);
    } finally {
      await rm(tmp, { force: true });
    }
    return { rows: await this.count(), columns };
  }
}

/** DuckDB's refusal of a transformation (type clash, bad cast) as a researcher's message. */
export function asDataError(e: unknown): Error {
  if (e instanceof DataError) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (/^(Binder|Conversion|Invalid Input|Mismatch Type) Error/.test(message)) {
    return new DataError(
      'invalid_request',
      `The data cannot be combined that way: ${message
        .split('\n')[0]!
        .replace(/^[A-Za-z ]+Error: /, '')
        .slice(0, 300)}`,
    );
  }
  return e instanceof Error ? e : new Error(message);
}

/** Columns by name, refusing unknown names with the list the dataset has. */
export function requireColumns(
  columns: ColumnInfo[],
  names: string[],
  what = 'The dataset',
): ColumnInfo[] {
  const byName = new Map(columns.map((c) => [c.name, c]));
  return names.map((n) => {
    const c = byName.get(n);
    if (!c) {
      const known = columns
        .slice(0, 20)
        .map((x) => x.name)
        .join(', ');
      throw new DataError(
        'unknown_column',
        `${what} has no column "${n}" (it has: ${known}${columns.length > 20 ? ', ...' : ''}).`,
      );
    }
    return c;
  });
}

/** A column name not yet in `taken` (adds _2, _3, ...), recorded as taken. */
export function freshName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}
