import { types, type QueryOptions, type Results } from '@electric-sql/pglite';

/**
 * Reads PostgreSQL's reply to Bind, Execute and Sync of a prepared statement straight from its
 * bytes into PGlite's result shape (`parse.parseResults` of `@electric-sql/pglite`: the same
 * rows, fields, command, affectedRows and rowCount, each value through the same parser).
 * PGlite's own path decodes each message into an object first and each field of a data row
 * through an ArrayBuffer copy and a TextDecoder, which on a list read cost more than
 * PostgreSQL's execution (docs/performance.md, API reads). Only the messages of a reply that
 * went well are read here; anything else (an error, a notice, a notification) makes it answer
 * undefined and the caller reads the reply PGlite's way.
 */

type Parser = (value: string, typeId: number) => unknown;
type Parsers = Record<number | string, Parser | undefined>;

/** A result column as PostgreSQL described it. */
export interface Column {
  name: string;
  dataTypeID: number;
}

const BIND_COMPLETE = 0x32; // '2'
const COMMAND_COMPLETE = 0x43; // 'C'
const DATA_ROW = 0x44; // 'D'
const EMPTY_QUERY = 0x49; // 'I'
const NO_DATA = 0x6e; // 'n'
const READY_FOR_QUERY = 0x5a; // 'Z'

/** The commands whose tag's count PGlite adds to affectedRows. */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

export class ReplyShapeError extends Error {}

export function readReply(
  raw: Buffer,
  columns: readonly Column[],
  instanceParsers: Parsers,
  options: QueryOptions | undefined,
): Results | undefined {
  // As parseResults: a parser given with the query wins, then the instance's, then PGlite's.
  const given = options?.parsers as Parsers | undefined;
  const parsers = columns.map(
    (c) => given?.[c.dataTypeID] ?? instanceParsers[c.dataTypeID] ?? types.parsers[c.dataTypeID],
  );
  const arrays = options?.rowMode === 'array';
  const rows: unknown[] = [];
  let result: Results | undefined;
  let affectedRows = 0;
  let offset = 0;
  while (offset + 5 <= raw.length) {
    const code = raw[offset]!;
    const end = offset + 1 + raw.readUInt32BE(offset + 1);
    if (end > raw.length) return undefined;
    switch (code) {
      case DATA_ROW: {
        if (result) return undefined; // a second result: not a reply to one Execute
        let p = offset + 5;
        const count = raw.readInt16BE(p);
        p += 2;
        // A kept statement's columns cannot change (PostgreSQL refuses to run it instead).
        if (count !== columns.length)
          throw new ReplyShapeError('row does not match its description');
        const row: unknown[] | Record<string, unknown> = arrays ? new Array<unknown>(count) : {};
        for (let i = 0; i < count; i++) {
          const length = raw.readInt32BE(p);
          p += 4;
          let value: unknown = null;
          if (length !== -1) {
            const text = raw.toString('utf8', p, p + length);
            p += length;
            const parse = parsers[i];
            value = parse ? parse(text, columns[i]!.dataTypeID) : text;
          }
          if (arrays) (row as unknown[])[i] = value;
          else setField(row as Record<string, unknown>, columns[i]!.name, value);
        }
        rows.push(row);
        break;
      }
      case COMMAND_COMPLETE: {
        if (result) return undefined;
        // The tag, without its terminating zero: "SELECT 20", "INSERT 0 1", "CREATE INDEX".
        const parts = raw.toString('utf8', offset + 5, end - 1).split(' ');
        const command = parts[0]!;
        const rowCount = parseInt(parts[parts.length - 1]!, 10);
        if (COUNTED.has(command)) affectedRows += rowCount;
        result = {
          rows,
          fields: columns.map((c) => ({ name: c.name, dataTypeID: c.dataTypeID })),
          command,
          affectedRows,
        } as Results;
        if (!Number.isNaN(rowCount)) (result as { rowCount?: number }).rowCount = rowCount;
        break;
      }
      case BIND_COMPLETE:
      case EMPTY_QUERY:
      case NO_DATA:
      case READY_FOR_QUERY:
        break;
      default:
        return undefined;
    }
    offset = end;
  }
  if (offset !== raw.length) return undefined;
  // No command completed (an empty statement): as parseResults.
  return result ?? ({ affectedRows: 0, rows: [], fields: [] } as unknown as Results);
}

/** As Object.fromEntries: a column named __proto__ is a field, not the prototype. */
function setField(row: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(row, name, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    row[name] = value;
  }
}
