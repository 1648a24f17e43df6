import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetProfile, MissingTokenCount } from '../../../common/teams/data';
import { DEFAULT_MISSING_TOKENS } from '../../../common/missing-tokens';
import { queryOne, queryRows, toNumber } from './duckdb';
import { ident, literal } from './sql';

/**
 * Missing-value tokens: cell texts such as NA (R), `.` (Stata) or `-` that a loaded file uses
 * for "no value". They are read as NULL when the file is copied to Parquet, so a numeric column
 * with an NA stays numeric; which tokens each column held, and how often, is written beside the
 * Parquet copy (the Parquet file itself no longer tells an NA from an empty cell), and every
 * profile of that copy lists them.
 */

/** Which tokens were read as missing, and how many cells of each column held each. */
export interface MissingTokenRecord {
  recognised: string[];
  columns: Record<string, MissingTokenCount[]>;
}

/** The tokens a load uses when the caller chose none. */
export function tokensOrDefault(tokens: readonly string[] | undefined): string[] {
  return [...(tokens ?? DEFAULT_MISSING_TOKENS)];
}

/** Where a Parquet copy's record of tokens is kept: beside it, moved with it. */
export function missingTokensFile(parquetPath: string): string {
  return `${parquetPath}.missing-tokens.json`;
}

/** The SQL list of the tokens, for IN (...). */
function tokenList(tokens: readonly string[]): string {
  return tokens.map(literal).join(', ');
}

/** Counts by token, most frequent first (ties in the order of `tokens`), without zeros. */
function ordered(counts: Map<string, number>, tokens: readonly string[]): MissingTokenCount[] {
  return tokens
    .map((token) => ({ token, count: counts.get(token) ?? 0 }))
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count);
}

/** Null cells per column of a Parquet file, from its metadata (no data read). */
async function nullCounts(
  conn: DuckDBConnection,
  parquetPath: string,
): Promise<Map<string, number>> {
  const rows = await queryRows(
    conn,
    `SELECT path_in_schema AS name, sum(stats_null_count) AS nulls
       FROM parquet_metadata(${literal(parquetPath)}) GROUP BY 1`,
  );
  return new Map(rows.map((r) => [String(r.name), toNumber(r.nulls) ?? 0]));
}

/**
 * The tokens of a CSV file whose Parquet copy read them as NULL. Only columns with NULL cells in
 * the copy can have held a token, and a file whose tokens are only the empty cell needs no
 * reading at all (every NULL was an empty cell); otherwise one scan of those columns as text
 * (`textRelation`: the same reader with every column as VARCHAR) counts the other tokens, and
 * the rest of the NULL cells were empty.
 */
export async function countCsvTokens(
  conn: DuckDBConnection,
  parquetPath: string,
  textRelation: string,
  tokens: readonly string[],
): Promise<MissingTokenRecord> {
  const nulls = [...(await nullCounts(conn, parquetPath))].filter(([, n]) => n > 0);
  const written = tokens.filter((t) => t !== '');
  const counted = new Map<string, Map<string, number>>();
  if (nulls.length > 0 && written.length > 0) {
    const aggregates = nulls.flatMap(([name], c) =>
      written.map((t, k) => `count(*) FILTER (WHERE ${ident(name)} = ${literal(t)}) AS c${c}_${k}`),
    );
    const row = await queryOne(conn, `SELECT ${aggregates.join(', ')} FROM ${textRelation}`);
    nulls.forEach(([name], c) => {
      counted.set(name, new Map(written.map((t, k) => [t, toNumber(row[`c${c}_${k}`]) ?? 0])));
    });
  }
  const columns: Record<string, MissingTokenCount[]> = {};
  for (const [name, n] of nulls) {
    const byToken = counted.get(name) ?? new Map<string, number>();
    const named = [...byToken.values()].reduce((s, x) => s + x, 0);
    // DuckDB reads an empty cell as NULL only when '' is one of the tokens.
    if (tokens.includes('') && n > named) byToken.set('', n - named);
    const found = ordered(byToken, tokens);
    if (found.length > 0) columns[name] = found;
  }
  return { recognised: [...tokens], columns };
}

/**
 * A JSON file's text values that are tokens. DuckDB reads a JSON field as VARCHAR when it holds
 * only strings and as JSON when strings and numbers mix ({"gdp": "NA"} beside {"gdp": 1.5});
 * such a column's tokens become NULL and, when every other value is a number, the column a
 * number. JSON's own null is not a token. Returns each column's select expression and the counts.
 */
export async function jsonTokenColumns(
  conn: DuckDBConnection,
  relation: string,
  columns: { name: string; type: string }[],
  tokens: readonly string[],
): Promise<{ select: Map<string, string>; record: MissingTokenRecord }> {
  const record: MissingTokenRecord = { recognised: [...tokens], columns: {} };
  const select = new Map<string, string>();
  const texts = columns.filter((c) => c.type === 'VARCHAR' || c.type === 'JSON');
  if (texts.length === 0 || tokens.length === 0) return { select, record };
  const list = tokenList(tokens);
  // A JSON value as text: a string without its quotes, a number as written, an object as JSON.
  const textOf = (c: { name: string; type: string }) =>
    c.type === 'JSON' ? `(${ident(c.name)} ->> '$')` : ident(c.name);
  const aggregates = texts.flatMap((c, i) => {
    const t = textOf(c);
    return [
      ...tokens.map((tok, k) => `count(*) FILTER (WHERE ${t} = ${literal(tok)}) AS t${i}_${k}`),
      `count(*) FILTER (WHERE ${t} NOT IN (${list}) AND TRY_CAST(${t} AS DOUBLE) IS NULL) AS text${i}`,
      // Integers as written (TRY_CAST to BIGINT would round 1.5 to 2).
      `count(*) FILTER (WHERE ${t} NOT IN (${list}) AND NOT regexp_full_match(${t}, '-?[0-9]{1,18}')) AS notint${i}`,
      `count(*) FILTER (WHERE ${t} NOT IN (${list})) AS kept${i}`,
    ];
  });
  const row = await queryOne(conn, `SELECT ${aggregates.join(', ')} FROM ${relation}`);
  texts.forEach((c, i) => {
    const counts = new Map(tokens.map((tok, k) => [tok, toNumber(row[`t${i}_${k}`]) ?? 0]));
    const found = ordered(counts, tokens);
    if (found.length === 0) return;
    record.columns[c.name] = found;
    const t = textOf(c);
    const kept = `CASE WHEN ${t} IN (${list}) THEN NULL ELSE ${t} END`;
    const numeric = (toNumber(row[`kept${i}`]) ?? 0) > 0 && toNumber(row[`text${i}`]) === 0;
    if (numeric) {
      const type = toNumber(row[`notint${i}`]) === 0 ? 'BIGINT' : 'DOUBLE';
      select.set(c.name, `TRY_CAST(${kept} AS ${type}) AS ${ident(c.name)}`);
    } else {
      // Other values stay as they were written (a JSON column's as JSON text).
      const original = c.type === 'JSON' ? `to_json(${ident(c.name)})::VARCHAR` : ident(c.name);
      select.set(
        c.name,
        `CASE WHEN ${t} IN (${list}) THEN NULL ELSE ${original} END AS ${ident(c.name)}`,
      );
    }
  });
  return { select, record };
}

/** Writes the record beside the Parquet copy (under a temporary name first). */
export async function writeMissingTokens(
  parquetPath: string,
  record: MissingTokenRecord,
): Promise<void> {
  const file = missingTokensFile(parquetPath);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify(record), { mode: 0o600 });
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
}

/** The record beside a Parquet copy, or null (data made in the app, or stored before). */
export async function readMissingTokens(parquetPath: string): Promise<MissingTokenRecord | null> {
  let text: string;
  try {
    text = await readFile(missingTokensFile(parquetPath), 'utf8');
  } catch {
    return null;
  }
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * The record in a parsed file, with only its known fields, or null when the file holds
 * something else. Checked by hand rather than with zod (missingTokenCountSchema's shape): every
 * profile reads this record, and without zod a process that only loads and profiles imports
 * neither zod nor the contracts' schemas (a third of its start-up; docs/performance.md).
 */
function asRecord(value: unknown): MissingTokenRecord | null {
  if (!isObject(value) || !isObject(value.columns)) return null;
  const { recognised } = value;
  if (!Array.isArray(recognised) || !recognised.every((t) => typeof t === 'string')) return null;
  const columns: Record<string, MissingTokenCount[]> = {};
  for (const [name, counts] of Object.entries(value.columns)) {
    if (!Array.isArray(counts)) return null;
    const kept: MissingTokenCount[] = [];
    for (const c of counts as unknown[]) {
      if (!isObject(c) || typeof c.token !== 'string' || typeof c.count !== 'number') return null;
      kept.push({ token: c.token, count: c.count });
    }
    columns[name] = kept;
  }
  return { recognised: [...(recognised as string[])], columns };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The profile with the tokens of its Parquet copy (each column's, and the list in effect). */
export async function withMissingTokens(
  profile: DatasetProfile,
  parquetPath: string,
): Promise<DatasetProfile> {
  const record = await readMissingTokens(parquetPath);
  if (!record) return { ...profile, missingTokens: null };
  return {
    ...profile,
    missingTokens: { recognised: record.recognised },
    columns: profile.columns.map((c) => ({ ...c, missingTokens: record.columns[c.name] ?? [] })),
  };
}
