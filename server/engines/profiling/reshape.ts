import type { DuckDBConnection } from '@duckdb/node-api';
import {
  columnYear,
  MAX_RESHAPE_COLUMNS,
  MAX_RESHAPE_ROWS,
  reshapeSpecSchema,
  type ReshapeSpec,
  type TransformReport,
} from '../../../common/teams/data';
import { familyOf } from './columns';
import { queryOne, queryRows, toNumber, type DuckDb } from './duckdb';
import { DataError, parseSpec } from './errors';
import type { ColumnInfo } from './ingest';
import { asDataError, freshName, Pipeline, requireColumns } from './pipeline';
import { withSource } from './source';
import { ident, literal } from './sql';

/**
 * Reshaping a panel between its wide layout (one column per period, as the World Bank's WDI
 * files come: "Country Name", "Country Code", "Indicator Name", "Indicator Code", "1960", ...,
 * "2023") and its long layout (one row per entity and period), written as a new Parquet file.
 * Both directions are lossless: wide to long keeps empty cells as missing values (unless asked
 * to drop them), long to wide refuses a pair of id and time that appears twice.
 */

type Spec = ReturnType<typeof reshapeSpecSchema.parse>;
type WideToLong = Extract<Spec, { direction: 'wide_to_long' }>;
type LongToWide = Extract<Spec, { direction: 'long_to_wide' }>;

export interface ReshapeLimits {
  /** Most rows the result may have (MAX_RESHAPE_ROWS). */
  maxRows?: number;
  /** Most columns long to wide may make (MAX_RESHAPE_COLUMNS). */
  maxColumns?: number;
}

/** The year a column's name stands for (common/teams/data.ts columnYear). */
export const yearOf = columnYear;

const count = (n: number) => n.toLocaleString('en');
const names = (cols: { name: string }[]) => cols.map((c) => c.name).join(', ');
const span = (labels: string[]) =>
  labels.length <= 3 ? labels.join(', ') : `${labels[0]} … ${labels[labels.length - 1]}`;

export async function reshape(
  db: DuckDb,
  file: string,
  input: ReshapeSpec,
  out: string,
  limits: ReshapeLimits = {},
): Promise<TransformReport> {
  const spec = parseSpec(reshapeSpecSchema, input);
  const maxRows = limits.maxRows ?? MAX_RESHAPE_ROWS;
  return withSource(db, file, async (conn, info) => {
    try {
      return spec.direction === 'wide_to_long'
        ? await wideToLong(conn, info, spec, out, maxRows)
        : await longToWide(
            conn,
            info,
            spec,
            out,
            maxRows,
            limits.maxColumns ?? MAX_RESHAPE_COLUMNS,
          );
    } catch (e) {
      throw asDataError(e);
    }
  });
}

function idColumnsOf(info: ColumnInfo[], idColumns: string[]): ColumnInfo[] {
  const twice = idColumns.find((n, i) => idColumns.indexOf(n) !== i);
  if (twice !== undefined) {
    throw new DataError('invalid_request', `The id column "${twice}" is chosen twice.`);
  }
  return requireColumns(info, idColumns);
}

function tooMany(rows: number, max: number, what: string): DataError {
  return new DataError(
    'too_complex',
    `The reshaped dataset would have ${count(rows)} rows, more than the ${count(max)} a reshape may write. ${what}`,
  );
}

async function wideToLong(
  conn: DuckDBConnection,
  info: ColumnInfo[],
  spec: WideToLong,
  out: string,
  maxRows: number,
): Promise<TransformReport> {
  const ids = idColumnsOf(info, spec.idColumns);
  const idNames = new Set(ids.map((c) => c.name));
  let values: ColumnInfo[];
  if (spec.valueColumns !== undefined) {
    values = requireColumns(info, spec.valueColumns);
    const both = values.find((c) => idNames.has(c.name));
    if (both) {
      throw new DataError(
        'invalid_request',
        `"${both.name}" is chosen both as an id column and as a value column.`,
      );
    }
  } else {
    values = info.filter((c) => !idNames.has(c.name) && yearOf(c.name) !== null);
  }
  if (values.length === 0) {
    throw new DataError(
      'invalid_request',
      spec.valueColumns === undefined
        ? 'There are no value columns to turn into rows: none of the other columns is named by a year (such as 1960). Choose the value columns.'
        : 'Choose at least one value column to turn into rows.',
    );
  }
  if (spec.timeName === spec.valueName) {
    throw new DataError(
      'invalid_request',
      `The time and value columns need different names (both are "${spec.timeName}").`,
    );
  }
  for (const n of [spec.timeName, spec.valueName]) {
    if (idNames.has(n)) {
      throw new DataError(
        'invalid_request',
        `"${n}" is already an id column: choose another name for the new column.`,
      );
    }
  }

  const years = values.map((c) => yearOf(c.name));
  const asYears = years.every((y) => y !== null);
  const numeric = values.every((c) => familyOf(c.type) === 'numeric');
  const text = values.filter((c) => familyOf(c.type) !== 'numeric');
  const p = new Pipeline(conn, 'src');
  const sourceRows = await p.count();
  const missing =
    toNumber(
      (
        await queryOne(
          conn,
          `SELECT ${values.map((c) => `count(*) - count(${ident(c.name)})`).join(' + ')} AS n FROM src`,
        )
      ).n,
    ) ?? 0;
  const total = sourceRows * values.length - (spec.dropMissing ? missing : 0);
  if (total > maxRows) {
    throw tooMany(total, maxRows, 'Choose fewer value columns or filter the rows first.');
  }

  const n = values.length;
  const times = asYears
    ? `[${years.join(', ')}]::INTEGER[]`
    : `[${values.map((c) => literal(c.name)).join(', ')}]::VARCHAR[]`;
  const cells = `[${values
    .map((c) => `${ident(c.name)}::${numeric ? 'DOUBLE' : 'VARCHAR'}`)
    .join(', ')}]`;
  const idList = ids.map((c) => ident(c.name)).join(', ');
  await p.step((from) => `SELECT *, row_number() OVER () AS __r0 FROM ${from}`);
  await p.step(
    (from) =>
      `SELECT ${idList}, __r0, unnest(range(${n})) AS __k, unnest(${times}) AS __t, unnest(${cells}) AS __v FROM ${from}`,
  );
  await p.step(
    (from) =>
      `SELECT ${idList}, __t AS ${ident(spec.timeName)}, __v AS ${ident(spec.valueName)}, ` +
      `(__r0 - 1) * ${n} + __k AS __rid FROM ${from}` +
      (spec.dropMissing ? ' WHERE __v IS NOT NULL' : ''),
  );
  const written = await p.write(out);
  const notes = [
    `Wide to long: ${count(sourceRows)} rows × ${n} value columns (${span(values.map((c) => c.name))}) became ${count(written.rows)} rows of ${names(ids)}, ${spec.timeName} and ${spec.valueName}.`,
    asYears
      ? `The column ${spec.timeName} holds the year of each value column, as a whole number.`
      : `The column ${spec.timeName} holds the name of each value column.`,
  ];
  if (missing > 0) {
    notes.push(
      spec.dropMissing
        ? `${count(missing)} empty cells were left out.`
        : `${count(missing)} empty cells are kept as missing values.`,
    );
  }
  if (!numeric) {
    notes.push(`The columns ${names(text)} hold text, so ${spec.valueName} is text.`);
  }
  const others = info.filter((c) => !idNames.has(c.name) && !values.includes(c));
  if (others.length > 0) {
    notes.push(
      `Left out (neither id nor value columns): ${names(others.slice(0, 10))}${others.length > 10 ? ', ...' : ''}.`,
    );
  }
  return { ...written, notes };
}

/** A time value as a column name: 1960 rather than 1960.0. */
const columnLabel = (v: string) => v.replace(/^(-?\d+)\.0+$/, '$1');

async function longToWide(
  conn: DuckDBConnection,
  info: ColumnInfo[],
  spec: LongToWide,
  out: string,
  maxRows: number,
  maxColumns: number,
): Promise<TransformReport> {
  const ids = idColumnsOf(info, spec.idColumns);
  const [time, value] = requireColumns(info, [spec.timeColumn, spec.valueColumn]) as [
    ColumnInfo,
    ColumnInfo,
  ];
  if (time.name === value.name) {
    throw new DataError(
      'invalid_request',
      'The time column and the value column must be different columns.',
    );
  }
  const both = ids.find((c) => c.name === time.name || c.name === value.name);
  if (both) {
    throw new DataError(
      'invalid_request',
      `"${both.name}" cannot be an id column and the ${both.name === time.name ? 'time' : 'value'} column at once.`,
    );
  }
  const idList = ids.map((c) => ident(c.name)).join(', ');
  const t = ident(time.name);
  const p = new Pipeline(conn, 'src');
  const sourceRows = await p.count();
  const noTime = await p.count(`${t} IS NULL`);

  const dup = await queryRows(
    conn,
    `SELECT ${ids.map((c, i) => `${ident(c.name)}::VARCHAR AS k${i}`).join(', ')}, ${t}::VARCHAR AS t, count(*) AS n
     FROM src WHERE ${t} IS NOT NULL GROUP BY ${idList}, ${t} HAVING count(*) > 1 LIMIT 1`,
  );
  if (dup[0]) {
    const d = dup[0];
    const at = ids
      .map((c, i) => `${c.name} = ${d[`k${i}`] === null ? '(missing)' : String(d[`k${i}`])}`)
      .join(', ');
    throw new DataError(
      'invalid_request',
      `${at}, ${time.name} = ${String(d.t)} appears in ${String(d.n)} rows: each combination of the id columns and ${time.name} must appear once. Add the columns that tell those rows apart to the id columns, or aggregate first.`,
    );
  }

  const distinct = await queryRows(
    conn,
    `SELECT ${t}::VARCHAR AS v FROM src WHERE ${t} IS NOT NULL GROUP BY ${t} ORDER BY ${t} LIMIT ${maxColumns + 1}`,
  );
  if (distinct.length > maxColumns) {
    throw new DataError(
      'too_complex',
      `${time.name} has more than ${count(maxColumns)} different values, so the wide dataset would have more than ${count(maxColumns)} new columns. Choose a time column with fewer values.`,
    );
  }
  if (distinct.length === 0) {
    throw new DataError('invalid_request', `${time.name} has no values to make columns from.`);
  }
  const rows =
    toNumber(
      (await queryOne(conn, `SELECT count(*) AS n FROM (SELECT DISTINCT ${idList} FROM src)`)).n,
    ) ?? 0;
  if (rows > maxRows) throw tooMany(rows, maxRows, 'Choose fewer id columns.');

  const taken = new Set(ids.map((c) => c.name));
  const labels = distinct.map((r) => String(r.v));
  const columns = labels.map((v) => ({
    value: v,
    name: freshName(`${spec.prefix}${columnLabel(v)}`, taken),
  }));
  const v = ident(value.name);
  await p.step(
    (from) =>
      `SELECT *, ${t}::VARCHAR AS __tv, row_number() OVER () AS __r FROM ${from} WHERE ${t} IS NOT NULL`,
  );
  await p.step(
    (from) =>
      `SELECT ${idList}, ${columns
        .map((c) => `first(${v}) FILTER (WHERE __tv = ${literal(c.value)}) AS ${ident(c.name)}`)
        .join(', ')}, min(__r) AS __rid FROM ${from} GROUP BY ${idList}`,
  );
  const written = await p.write(out);
  const notes = [
    `Long to wide: ${count(sourceRows - noTime)} rows became ${count(written.rows)} rows of ${names(ids)}, with one column of ${value.name} for each of the ${columns.length} values of ${time.name} (${span(columns.map((c) => c.name))}).`,
  ];
  if (noTime > 0) notes.push(`${count(noTime)} rows without a ${time.name} were left out.`);
  return { ...written, notes };
}
