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
import {
  countCsvTokens,
  jsonTokenColumns,
  missingTokensFile,
  tokensOrDefault,
  writeMissingTokens,
  type MissingTokenRecord,
} from './missing-tokens';
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
  /**
   * The missing-value tokens read as NULL and where they were found (also kept beside the
   * Parquet copy for its profiles); absent when the copy already existed.
   */
  missingTokens?: MissingTokenRecord;
}

/**
 * The DuckDB relation that reads a checked file. `sampleAll` infers types from every row; a CSV
 * file's `missingTokens` are read as NULL (DuckDB's nullstr, quoted or not, as pandas does);
 * `allText` reads every CSV column as the text written (the empty cell as NULL).
 */
export function sourceRelation(
  filePath: string,
  check: FileLayout,
  sampleAll = false,
  options: { missingTokens?: readonly string[]; allText?: boolean } = {},
): string {
  const sample = sampleAll ? ', sample_size=-1' : '';
  if (check.format === 'csv') {
    const tokens = options.missingTokens;
    const nulls = options.allText
      ? ', all_varchar=true'
      : tokens && tokens.length > 0
        ? `, nullstr=[${tokens.map(literal).join(', ')}]`
        : '';
    return (
      `read_csv(${literal(filePath)}, header=true, delim=${literal(check.delimiter ?? ',')}, ` +
      `quote='"', escape='"', strict_mode=true${sample}${nulls})`
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
 * The copy is written under a temporary name and renamed, so a crash never leaves half a file;
 * the record of missing-value tokens (`missingTokens`, DEFAULT_MISSING_TOKENS when not given) is
 * written beside it before the rename.
 */
export async function ingestFile(
  db: DuckDb,
  filePath: string,
  check: FileLayout,
  parquetPath: string,
  missingTokens?: readonly string[],
): Promise<TableInfo> {
  const tokens = tokensOrDefault(missingTokens);
  return db.withConnection(async (conn) => {
    let written: { dropped: string[]; missingTokens?: MissingTokenRecord } = { dropped: [] };
    if (!(await exists(parquetPath))) {
      const tmp = `${parquetPath}.${process.pid}.${Date.now()}.tmp`;
      try {
        written = await writeParquet(conn, filePath, check, tmp, tokens);
        if (written.missingTokens) await writeMissingTokens(parquetPath, written.missingTokens);
        await rename(tmp, parquetPath);
      } finally {
        await rm(tmp, { force: true });
      }
    }
    return { ...(await describeParquet(conn, parquetPath)), ...written };
  });
}

async function writeParquet(
  conn: DuckDBConnection,
  filePath: string,
  check: FileLayout,
  out: string,
  tokens: readonly string[],
): Promise<{ dropped: string[]; missingTokens: MissingTokenRecord }> {
  const copied = await copyFile(conn, filePath, check, out, tokens);
  if (copied.missingTokens) return { dropped: copied.dropped, missingTokens: copied.missingTokens };
  // A CSV file's tokens became NULL in the copy: which ones, counted from the text.
  const text = sourceRelation(filePath, check, false, { allText: true });
  try {
    return {
      dropped: copied.dropped,
      missingTokens: await countCsvTokens(conn, out, text, tokens),
    };
  } catch (e) {
    throw readError(e, filePath, check);
  }
}

/** The Parquet copy; a JSON file's token counts come with it (see jsonTokenColumns). */
async function copyFile(
  conn: DuckDBConnection,
  filePath: string,
  check: FileLayout,
  out: string,
  tokens: readonly string[],
): Promise<{ dropped: string[]; missingTokens?: MissingTokenRecord }> {
  const csvTokens = { missingTokens: check.format === 'csv' ? tokens : undefined };
  let relation = sourceRelation(filePath, check, false, csvTokens);
  let first: { select: string; dropped: string[]; missingTokens?: MissingTokenRecord };
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
    first = await selectList(conn, relation, columns, check, tokens);
  }
  try {
    await conn.run(copyTo(first.select, relation, out));
    return first;
  } catch (e) {
    // Types are inferred from a sample of rows; a later value that does not fit (a note in a
    // numeric column on row 50,000) makes DuckDB stop. Infer again from every row.
    if (!/Could not convert|Conversion Error|could not be cast/i.test(String(e))) {
      throw readError(e, filePath, check);
    }
    relation = sourceRelation(filePath, check, true, csvTokens);
    try {
      const columns = await describeRelation(conn, relation);
      const wide = await selectList(conn, relation, columns, check, tokens);
      await conn.run(copyTo(wide.select, relation, out));
      return wide;
    } catch (e2) {
      throw readError(e2, filePath, check);
    }
  }
}

/**
 * The columns to keep, with nested JSON values turned into JSON text (profiles and charts work
 * on flat columns) and a JSON file's missing-value tokens read as NULL. A blank CSV header over
 * a column that is empty in every row (the trailing comma of files such as the World Bank's bulk
 * downloads) is left out.
 */
async function selectList(
  conn: DuckDBConnection,
  relation: string,
  columns: ColumnInfo[],
  check: FileLayout,
  tokens: readonly string[],
): Promise<{ select: string; dropped: string[]; missingTokens?: MissingTokenRecord }> {
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
  const json =
    check.format === 'json' ? await jsonTokenColumns(conn, relation, columns, tokens) : null;
  const kept = columns
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => !dropped.has(i))
    .map(
      ({ c }) =>
        json?.select.get(c.name) ??
        (NESTED.test(c.type)
          ? `to_json(${ident(c.name)})::VARCHAR AS ${ident(c.name)}`
          : ident(c.name)),
    );
  if (kept.length === 0) throw new DataError('empty', 'The file has no columns with data.');
  return {
    select: kept.join(', '),
    dropped: [...dropped].map((i) => columns[i]!.name),
    ...(json ? { missingTokens: json.record } : {}),
  };
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
  missingTokens?: readonly string[],
): Promise<{ check: FileCheck; table: TableInfo }> {
  // Set from the check's callback (a holder, so the type checker sees it may be set).
  const started: { copy?: Promise<TableInfo> } = {};
  let checked: Awaited<ReturnType<typeof checkForLoading>>;
  try {
    checked = await checkForLoading(filePath, fileName, expected, (layout) => {
      started.copy = ingestFile(db, filePath, layout, parquetPath, missingTokens);
      started.copy.catch(() => undefined); // awaited below; a failure surfaces there
    });
  } catch (e) {
    if (started.copy) {
      await started.copy.catch(() => undefined);
      await removeCopy(parquetPath);
    }
    throw e;
  }
  let table: TableInfo;
  try {
    table = await (started.copy ?? ingestFile(db, filePath, checked, parquetPath, missingTokens));
  } catch (e) {
    // The check's refusal says which row and what to do; DuckDB's, where the check finds none.
    if (checked.records === null) await checkDataFile(filePath, fileName, expected);
    throw e;
  }
  if (checked.records === null && table.rows === 0) {
    await removeCopy(parquetPath);
    throw new DataError('empty', NO_DATA_ROWS);
  }
  return { check: { ...checked, records: checked.records ?? table.rows }, table };
}

/** A refused file's Parquet copy and its record of tokens. */
async function removeCopy(parquetPath: string): Promise<void> {
  await rm(parquetPath, { force: true });
  await rm(missingTokensFile(parquetPath), { force: true });
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
