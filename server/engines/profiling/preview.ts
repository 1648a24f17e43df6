import type { DuckDBConnection } from '@duckdb/node-api';
import { queryOne, readRows, toNumber, type Cell } from './duckdb';
import type { ColumnInfo } from './ingest';

/** A page of a stored dataset's rows, in file order; only that page leaves DuckDB. */

export const MAX_PREVIEW_ROWS = 500;

export interface RowPage {
  columns: ColumnInfo[];
  /** Each row's cells in `columns` order. */
  rows: Cell[][];
  total: number;
  limit: number;
  offset: number;
}

export async function previewRows(
  conn: DuckDBConnection,
  columns: ColumnInfo[],
  limit: number,
  offset: number,
): Promise<RowPage> {
  const n = Math.max(1, Math.min(MAX_PREVIEW_ROWS, Math.floor(limit)));
  const from = Math.max(0, Math.floor(offset));
  const total = toNumber((await queryOne(conn, 'SELECT count(*) AS n FROM src')).n) ?? 0;
  const reader = await conn.runAndReadAll(`SELECT * FROM src LIMIT ${n} OFFSET ${from}`);
  const rows = readRows(reader).map((r) => columns.map((c) => r[c.name] ?? null));
  return { columns, rows, total, limit: n, offset: from };
}
