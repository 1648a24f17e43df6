import { mkdirSync } from 'node:fs';
import os from 'node:os';
import {
  DuckDBDoubleVector,
  DuckDBInstance,
  DuckDBTypeId,
  type DuckDBConnection,
  type DuckDBResultReader,
  version as duckDbLibraryVersion,
} from '@duckdb/node-api';

/**
 * The DuckDB database the profiling engine computes in: one in-memory instance per engine,
 * opened on first use. Files are never loaded into the Node heap: DuckDB reads CSV, JSON and
 * Parquet itself, spills to `tempDirectory` past `memoryLimit`, and only aggregates (or pages
 * of rows) come back to JavaScript.
 */

export interface DuckDbOptions {
  /** Worker threads for DuckDB; defaults to the machine's cores. */
  threads?: number;
  /**
   * How many independent queries a pool runs side by side (see source.ts); defaults to
   * `threads`. With threads 1 and connections 2, two single-threaded queries share two cores.
   */
  connections?: number;
  /** DuckDB's memory cap, e.g. '1GB'; past it, operators spill to tempDirectory. */
  memoryLimit?: string;
  /** Where DuckDB spills; defaults to the OS temp directory. */
  tempDirectory?: string;
}

/** The DuckDB library the engine computes with, for the provenance of computed numbers. */
export function duckDbVersion(): string {
  return `DuckDB ${duckDbLibraryVersion()}`;
}

/** A plain JSON value as read from a result. */
export type Cell = string | number | boolean | null | Cell[] | { [key: string]: Cell };
export type Row = Record<string, Cell>;

export interface DuckDb {
  /** Runs `fn` on a fresh connection (temp views are private to it) and closes it after. */
  withConnection<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T>;
  /** A fresh connection the caller closes (closeSync) when done. */
  connect(): Promise<DuckDBConnection>;
  /** How many independent queries are worth running at once. */
  readonly connections: number;
  close(): void;
}

const UNIT_BYTES: Record<string, number> = {
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/**
 * A DuckDB memory limit divided between `parts` instances (DuckDB's cap is per instance), in
 * KiB, so the configured limit stays the total. '1GB' in two parts is '488281KiB'.
 */
export function splitMemoryLimit(limit: string, parts: number): string {
  const m = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.exec(limit.trim());
  if (!m) throw new Error(`Not a memory limit: ${limit}`);
  const bytes = Number(m[1]) * UNIT_BYTES[m[2]!.toLowerCase()]!;
  return `${Math.max(1, Math.floor(bytes / parts / 1024))}KiB`;
}

export function createDuckDb(options: DuckDbOptions = {}): DuckDb {
  let instance: Promise<DuckDBInstance> | null = null;
  const open = () => {
    if (!instance) {
      const tempDirectory = options.tempDirectory ?? `${os.tmpdir()}/econagents-duckdb`;
      mkdirSync(tempDirectory, { recursive: true });
      instance = DuckDBInstance.create(':memory:', {
        threads: String(options.threads ?? Math.max(1, os.availableParallelism())),
        memory_limit: options.memoryLimit ?? '1GB',
        temp_directory: tempDirectory,
        // No network: the extensions we use (json, parquet) are built in.
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
      });
    }
    return instance;
  };
  return {
    connections: options.connections ?? options.threads ?? Math.max(1, os.availableParallelism()),
    async connect() {
      return (await open()).connect();
    },
    async withConnection(fn) {
      const db = await open();
      const conn = await db.connect();
      try {
        return await fn(conn);
      } finally {
        conn.closeSync();
      }
    },
    close() {
      if (!instance) return;
      const pending = instance;
      instance = null;
      void pending.then((db) => db.closeSync()).catch(() => undefined);
    },
  };
}

const INTEGER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
]);
const FLOAT_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DECIMAL,
]);

/**
 * One JSON-ready cell: integers as numbers while they are exact, decimals as numbers, NaN and
 * infinities as null (JSON has no spelling for them), dates and timestamps as ISO-like text.
 */
function toCell(value: unknown, typeId: DuckDBTypeId): Cell {
  if (value === null || value === undefined) return null;
  if (INTEGER_TYPES.has(typeId) || FLOAT_TYPES.has(typeId)) {
    const n = typeof value === 'string' ? Number(value) : Number(value);
    if (!Number.isFinite(n)) return null;
    if (INTEGER_TYPES.has(typeId) && !Number.isSafeInteger(n)) return String(value);
    return n;
  }
  return value as Cell;
}

/** Rows of a finished result as objects of JSON-ready cells. */
export function readRows(reader: DuckDBResultReader): Row[] {
  const names = reader.deduplicatedColumnNames();
  const typeIds = names.map((_, i) => reader.columnTypeId(i));
  return reader.getRowsJson().map((values) => {
    const row: Row = {};
    values.forEach((v, i) => {
      row[names[i]!] = toCell(v, typeIds[i]!);
    });
    return row;
  });
}

/** Runs one statement and returns its (small) result as rows. */
export async function queryRows(conn: DuckDBConnection, sql: string): Promise<Row[]> {
  return readRows(await conn.runAndReadAll(sql));
}

/** The first row of a statement that returns one. */
export async function queryOne(conn: DuckDBConnection, sql: string): Promise<Row> {
  const rows = await queryRows(conn, sql);
  const [first] = rows;
  if (!first) throw new Error('query returned no rows');
  return first;
}

/** A number from a cell (numbers stored as text included), or null. */
export function toNumber(cell: Cell | undefined): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell === 'string' && cell.trim() !== '') {
    const n = Number(cell);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * The DOUBLE columns of a statement as typed arrays (NULL as NaN), each in one array: the
 * chunks of readDoubleChunks put end to end. No JavaScript value per cell, so a 50,000-row
 * sample costs a fraction of what converting it to rows or arrays of numbers did (and leaves
 * almost nothing to collect). Materialized, not streamed: each streamed chunk is one more call
 * through Node's small thread pool, where it waits behind the long queries running beside it.
 */
export async function readDoubleColumns(
  conn: DuckDBConnection,
  sql: string,
  columns: number,
): Promise<Float64Array[]> {
  const chunks = await readDoubleChunks(conn, sql, columns);
  const rows = chunks.reduce((n, chunk) => n + chunk.columns[0]!.length, 0);
  const out = Array.from({ length: columns }, () => new Float64Array(rows));
  let at = 0;
  for (const chunk of chunks) {
    chunk.columns.forEach((values, c) => out[c]!.set(values, at));
    at += chunk.columns[0]!.length;
  }
  return out;
}

/** Columns of one chunk of a result, and what keeps their memory valid while they are used. */
export interface DoubleChunk {
  columns: Float64Array[];
  /** The chunk and the result it came from: a column read in place lives in their memory. */
  owner: unknown;
}

/**
 * The DOUBLE columns of a statement chunk by chunk (NULL as NaN), without copying them when
 * they can be read in place: a chunk's column without NULLs is a view of the typed array
 * DuckDB's vector already holds (see copyDoubles), kept valid by its chunk and the result, which
 * each entry holds on to (the result's memory is freed when the collector finalizes it).
 * Copying a million distinct values into arrays of their own made the collector run twice per
 * profile for the external memory alone.
 */
export async function readDoubleChunks(
  conn: DuckDBConnection,
  sql: string,
  columns: number,
): Promise<DoubleChunk[]> {
  const result = await conn.run(sql);
  const out: DoubleChunk[] = [];
  for (let k = 0; k < result.chunkCount; k++) {
    const chunk = result.getChunk(k);
    const n = chunk.rowCount;
    if (n === 0) continue;
    const views = Array.from({ length: columns }, (_, c) => {
      const vector = chunk.getColumnVector(c);
      if (!(vector instanceof DuckDBDoubleVector)) throw new Error(`column ${c} is not DOUBLE`);
      const parts = vectorParts(vector, n);
      if (parts?.validity === null) return parts.items;
      const copy = new Float64Array(n);
      copyDoubles(vector, n, copy, 0);
      return copy;
    });
    out.push({ columns: views, owner: { result, chunk } });
  }
  return out;
}

const ALL_VALID = (1n << 64n) - 1n;

/**
 * A DOUBLE vector's own typed array and validity mask (null when every value is present), read
 * from @duckdb/node-api's private fields after checking their shape; null when they are not
 * what this version has, and the caller reads value by value.
 */
function vectorParts(
  vector: DuckDBDoubleVector,
  n: number,
): { items: Float64Array; validity: BigUint64Array | null } | null {
  const inner = vector as unknown as {
    items?: unknown;
    validity?: { data?: unknown; offset?: unknown };
  };
  const { items, validity } = inner;
  if (!(items instanceof Float64Array) || items.length !== n || validity?.offset !== 0) return null;
  if (validity.data === null) return { items, validity: null };
  if (validity.data instanceof BigUint64Array && validity.data.length * 64 >= n) {
    return { items, validity: validity.data };
  }
  return null;
}

/**
 * Copies a DOUBLE vector into `into` from `at`, NULL as NaN. The vector's own typed array is
 * copied at once and the NULLs found in its validity mask, 64 values per word (see
 * vectorParts); reading value by value made a JavaScript number per cell, and at a million
 * distinct values that cost more than the statistics computed from them.
 */
export function copyDoubles(
  vector: DuckDBDoubleVector,
  n: number,
  into: Float64Array,
  at: number,
): void {
  const parts = vectorParts(vector, n);
  if (!parts) {
    for (let i = 0; i < n; i++) into[at + i] = vector.getItem(i) ?? NaN;
    return;
  }
  into.set(parts.items, at);
  const words = parts.validity;
  if (!words) return;
  for (let w = 0; w * 64 < n; w++) {
    const word = words[w]!;
    if (word === ALL_VALID) continue;
    for (let b = 0; b < 64 && w * 64 + b < n; b++) {
      if (((word >> BigInt(b)) & 1n) === 0n) into[at + w * 64 + b] = NaN;
    }
  }
}
