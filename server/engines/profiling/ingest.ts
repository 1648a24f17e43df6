import { rename, rm, stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryOne, queryRows, toNumber, type DuckDb } from './duckdb';
import { DataError } from './errors';
import {
  checkDataFile,
  checkForLoading,
  type DataFormat,
  type FileCheck,
  type FileLayout,
  NO_DATA_ROWS,
} from './inspect';
import { ident, literal, parquet, PARQUET_OPTIONS } from './sql';

/**
 * Turns a checked CSV or JSON file into a Parquet copy, written once by DuckDB (streamed from
 * file to file; nothing passes through the Node heap). Later queries read the Parquet copy,
 * which is columnar and typed, so they are fast.
 */

export interface ColumnInfo {
  name: string;
  /** DuckDB's type, e.g. BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP. */
  type: string;
}

export interface TableInfo {
  columns: ColumnInfo[];
  rows: number;
  /** Columns left out: a blank header over an all-empty column (a trailing delimiter). */
  dropped: string[];
}

/** The DuckDB relation that reads a checked file; `sampleAll` infers types from every row. */
export function sourceRelation(filePath: string, check: FileLayout, sampleAll = false): string {
  const sample = sampleAll ? ', sample_size=-1' : '';
  if (check.format === 'csv') {
    return (
      `read_csv(${literal(filePath)}, header=true, delim=${literal(check.delimiter ?? ',')}, ` +
      `quote='"', escape='"', strict_mode=true${sample})`
    );
  }
  const layout = check.jsonLayout === 'ndjson' ? 'newline_delimited' : 'array';
  return `read_json(${literal(filePath)}, format=${literal(layout)}, records=true${sample})`;
}

const NESTED = /^(STRUCT|MAP|UNION)\b|\[\]$|^JSON$|\[\d+\]$/;

/** Where DuckDB's message names our file, say "the file" instead (paths are not for users). */
function cleanMessage(message: string, filePath: string): string {
  const firstLines = message.split('\n').slice(0, 2).join(' ').replaceAll(filePath, 'the file');
  return firstLines.replace(/^(Invalid Input|Conversion|Parser) Error: /, '').slice(0, 400);
}

/**
 * Writes `parquetPath` from the checked file unless it already exists, and describes the table.
 * The copy is written under a temporary name and renamed, so a crash never leaves half a file.
 */
export async function ingestFile(
  db: DuckDb,
  filePath: string,
  check: FileLayout,
  parquetPath: string,
): Promise<TableInfo> {
  return db.withConnection(async (conn) => {
    let dropped: string[] = [];
    if (!(await exists(parquetPath))) {
      const tmp = `${parquetPath}.${process.pid}.${Date.now()}.tmp`;
      try {
        dropped = await writeParquet(conn, filePath, check, tmp);
        await rename(tmp, parquetPath);
      } finally {
        await rm(tmp, { force: true });
      }
    }
    return { ...(await describeParquet(conn, parquetPath)), dropped };
  });
}

async function writeParquet(
  conn: DuckDBConnection,
  filePath: string,
  check: FileLayout,
  out: string,
): Promise<string[]> {
  let relation = sourceRelation(filePath, check);
  let first: { select: string; dropped: string[] };
  if (check.format === 'csv' && !(check.header ?? []).some((h) => h.trim() === '')) {
    // Every CSV column is kept as it is: no need to have DuckDB sniff the types twice (once
    // for DESCRIBE, once for the copy; 20-60 ms at a million rows, before the copy could start).
    first = { select: '*', dropped: [] };
  } else {
    let columns: ColumnInfo[];
    try {
      columns = await describeRelation(conn, relation);
    } catch (e) {
      throw readError(e, filePath, check);
    }
    first = await selectList(conn, relation, columns, check);
  }
  try {
    await conn.run(copyTo(first.select, relation, out));
    return first.dropped;
  } catch (e) {
    // Types are inferred from a sample of rows; a later value that does not fit (a note in a
    // numeric column on row 50,000) makes DuckDB stop. Infer again from every row.
    if (!/Could not convert|Conversion Error|could not be cast/i.test(String(e))) {
      throw readError(e, filePath, check);
    }
    relation = sourceRelation(filePath, check, true);
    try {
      const wide = await selectList(conn, relation, await describeRelation(conn, relation), check);
      await conn.run(copyTo(wide.select, relation, out));
      return wide.dropped;
    } catch (e2) {
      throw readError(e2, filePath, check);
    }
  }
}

/**
 * The columns to keep, with nested JSON values turned into JSON text (profiles and charts work
 * on flat columns). A blank CSV header over a column that is empty in every row (the trailing
 * comma of files such as the World Bank's bulk downloads) is left out.
 */
async function selectList(
  conn: DuckDBConnection,
  relation: string,
  columns: ColumnInfo[],
  check: FileLayout,
): Promise<{ select: string; dropped: string[] }> {
  const blank = new Set(
    (check.header ?? [])
      .map((h, i) => (h.trim() === '' ? i : -1))
      .filter((i) => i >= 0 && i < columns.length),
  );
  const dropped = new Set<number>();
  if (blank.size > 0) {
    const counts = await queryOne(
      conn,
      `SELECT ${[...blank].map((i) => `count(${ident(columns[i]!.name)}) AS c${i}`).join(', ')} FROM ${relation}`,
    );
    for (const i of blank) if (toNumber(counts[`c${i}`]) === 0) dropped.add(i);
  }
  const kept = columns
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => !dropped.has(i))
    .map(({ c }) =>
      NESTED.test(c.type)
        ? `to_json(${ident(c.name)})::VARCHAR AS ${ident(c.name)}`
        : ident(c.name),
    );
  if (kept.length === 0) throw new DataError('empty', 'The file has no columns with data.');
  return { select: kept.join(', '), dropped: [...dropped].map((i) => columns[i]!.name) };
}

/**
 * Checks a file and writes its Parquet copy: the copy starts as soon as the check has read the
 * first record (format, delimiter and header are known then). A CSV file is read no further by
 * the check (checkForLoading): DuckDB's strict reader refuses rows that do not match the header
 * and bytes that are not UTF-8, and when DuckDB refuses the file, the whole check runs to name
 * the problem and the line. A JSON file is checked in full before the copy starts (its shape
 * limits protect DuckDB's memory). Whatever refuses the file, no copy is left.
 */
export async function loadFile(
  db: DuckDb,
  filePath: string,
  fileName: string,
  expected: DataFormat | undefined,
  parquetPath: string,
): Promise<{ check: FileCheck; table: TableInfo }> {
  // Set from the check's callback (a holder, so the type checker sees it may be set).
  const started: { copy?: Promise<TableInfo> } = {};
  let checked: Awaited<ReturnType<typeof checkForLoading>>;
  try {
    checked = await checkForLoading(filePath, fileName, expected, (layout) => {
      started.copy = ingestFile(db, filePath, layout, parquetPath);
      started.copy.catch(() => undefined); // awaited below; a failure surfaces there
    });
  } catch (e) {
    if (started.copy) {
      await started.copy.catch(() => undefined);
      await rm(parquetPath, { force: true });
    }
    throw e;
  }
  let table: TableInfo;
  try {
    table = await (started.copy ?? ingestFile(db, filePath, checked, parquetPath));
  } catch (e) {
    // The check's refusal says which row and what to do; DuckDB's, where the check finds none.
    if (checked.records === null) await checkDataFile(filePath, fileName, expected);
    throw e;
  }
  if (checked.records === null && table.rows === 0) {
    await rm(parquetPath, { force: true });
    throw new DataError('empty', NO_DATA_ROWS);
  }
  return { check: { ...checked, records: checked.records ?? table.rows }, table };
}

function copyTo(select: string, relation: string, out: string): string {
  return `COPY (SELECT ${select} FROM ${relation}) TO ${literal(out)} (${PARQUET_OPTIONS})`;
}

async function describeRelation(conn: DuckDBConnection, relation: string): Promise<ColumnInfo[]> {
  const rows = await queryRows(conn, `DESCRIBE SELECT * FROM ${relation}`);
  return rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
}

/** Columns and row count of a Parquet file (the count comes from its metadata). */
export async function describeParquet(conn: DuckDBConnection, file: string): Promise<TableInfo> {
  const columns = await describeRelation(conn, parquet(file));
  const count = await queryOne(conn, `SELECT count(*) AS n FROM ${parquet(file)}`);
  return { columns, rows: toNumber(count.n) ?? 0, dropped: [] };
}

function readError(e: unknown, filePath: string, check: FileLayout): DataError {
  const message = cleanMessage(e instanceof Error ? e.message : String(e), filePath);
  return new DataError(
    'malformed',
    check.format === 'json'
      ? `The JSON file could not be read: ${message}`
      : `The CSV file could not be read: ${message}`,
  );
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
