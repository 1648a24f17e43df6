import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { DataError } from './errors';

/**
 * Content checks for a data file before DuckDB reads it: the type by content as well as by
 * name, empty files, encodings other than UTF-8, ragged CSV rows and JSON that is not a list of
 * records. The file is read once as a stream of chunks (never whole into memory), and every
 * refusal names the line and what to do.
 */

export type DataFormat = 'csv' | 'json';
export type JsonLayout = 'array' | 'ndjson';
export type CsvDelimiter = ',' | ';' | '\t' | '|';

export interface FileCheck {
  format: DataFormat;
  /** JSON only: an array of records or newline-delimited records. */
  jsonLayout?: JsonLayout;
  /** CSV only. */
  delimiter?: CsvDelimiter;
  /** CSV only: the header's field names as written (blank names included). */
  header?: string[];
  /** Data records found (CSV rows after the header, JSON records). */
  records: number;
  bytes: number;
}

/** What reading the file needs, known from its first record: format, layout, delimiter, header. */
export type FileLayout = Pick<FileCheck, 'format' | 'jsonLayout' | 'delimiter' | 'header'>;

export const MAX_COLUMNS = 2000;
export const NO_DATA_ROWS = 'The file has a header but no data rows.';
const HEAD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 1 << 20;

/** The format a file name promises, or null when the name has another extension. */
export function formatFromName(fileName: string): DataFormat | null {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  return null;
}

const SIGNATURES: { bytes: number[]; what: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP archive (or an Excel .xlsx workbook)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel/Office document' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x1f, 0x8b], what: 'a gzip-compressed file' },
  { bytes: [0x50, 0x41, 0x52, 0x31], what: 'a Parquet file' },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], what: 'an SQLite database' },
];

const startsWith = (head: Buffer, bytes: number[]) =>
  head.length >= bytes.length && bytes.every((b, i) => head[i] === b);

/**
 * What the first bytes say: csv or json, or a DataError for binary, UTF-16 and empty content.
 * `head` is the file's first bytes (up to 64 KB).
 */
export function formatFromContent(head: Buffer): DataFormat {
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) {
    throw new DataError(
      'encoding',
      'The file is encoded as UTF-16. Save it as UTF-8 (in Excel: "CSV UTF-8") and upload it again.',
    );
  }
  for (const sig of SIGNATURES) {
    if (startsWith(head, sig.bytes)) {
      throw new DataError(
        'unsupported_type',
        `The file is ${sig.what}, not CSV or JSON text. Export the data as .csv or .json.`,
      );
    }
  }
  if (head.includes(0)) {
    throw new DataError(
      'unsupported_type',
      'The file holds binary data (NUL bytes), not CSV or JSON text. Export the data as .csv or .json.',
    );
  }
  const first = firstSignificantByte(head);
  if (first === null) throw new DataError('empty', 'The file is empty.');
  return first === 0x5b || first === 0x7b ? 'json' : 'csv';
}

function firstSignificantByte(buf: Buffer): number | null {
  let i = startsWith(buf, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  for (; i < buf.length; i++) {
    const b = buf[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b;
  }
  return null;
}

/**
 * Checks a data file and describes it. `fileName` is the name the user gave (its extension must
 * be .csv or .json and agree with the content); pass `expected` to skip the name rule for files
 * the server made itself. `onLayout` hears the file's layout as soon as its first record has
 * been read, while the rest is still being checked (so a copy can start beside the check).
 */
export async function checkDataFile(
  filePath: string,
  fileName: string,
  expected?: DataFormat,
  onLayout?: (layout: FileLayout) => void,
): Promise<FileCheck> {
  const { scanner, size } = await openCheck(filePath, fileName, expected);
  await scanFile(filePath, scanner, onLayout, true);
  return { ...scanner.finish(), bytes: size };
}

/**
 * What loading a CSV file needs checked before DuckDB's strict reader reads it: the name, the
 * type by content and the header (its size and number of columns); the file is read no further
 * than that. DuckDB refuses a file whose rows do not match the header, that leaves a quote open
 * or that is not UTF-8 (the same byte sequences Node's check refuses: surrogates, overlong forms,
 * code points past U+10FFFF), and the loader then runs checkDataFile to name the problem and the
 * line. (Counting every row's fields was two thirds of the whole check's time, and reading the
 * rest of the file for UTF-8 took a core beside DuckDB's two.) A JSON file gets the whole check,
 * which refuses some files DuckDB would read, before its layout is announced: DuckDB reads no
 * JSON file whose nesting or field names are past JSON_LIMITS. `records` is null when not
 * counted.
 */
export async function checkForLoading(
  filePath: string,
  fileName: string,
  expected: DataFormat | undefined,
  onLayout: (layout: FileLayout) => void,
): Promise<Omit<FileCheck, 'records'> & { records: number | null }> {
  const { scanner, size } = await openCheck(filePath, fileName, expected);
  if (scanner instanceof JsonScanner) {
    // The whole file first: DuckDB must not see JSON past the shape limits (JSON_LIMITS).
    await scanFile(filePath, scanner, undefined, true);
    const checked = scanner.finish();
    onLayout({ format: 'json', jsonLayout: checked.jsonLayout });
    return { ...checked, bytes: size };
  }
  await scanFile(filePath, scanner, onLayout, false);
  const layout = scanner.layout();
  // No whole header: an empty file or a header without a line end; the whole check says which.
  if (!layout) return { ...scanner.finish(), bytes: size };
  return { ...layout, records: null, bytes: size };
}

/** The checks on the name and the first bytes, and the scanner for the rest. */
async function openCheck(
  filePath: string,
  fileName: string,
  expected: DataFormat | undefined,
): Promise<{ scanner: CsvScanner | JsonScanner; size: number }> {
  const byName = expected ?? formatFromName(fileName);
  if (!byName) {
    throw new DataError(
      'unsupported_type',
      `Only .csv and .json files are accepted (got "${path.basename(fileName)}").`,
    );
  }
  const { size } = await stat(filePath);
  if (size === 0) throw new DataError('empty', 'The file is empty.');
  const head = await readHead(filePath, HEAD_BYTES);
  const byContent = formatFromContent(head);
  if (byContent !== byName) {
    throw new DataError(
      'type_mismatch',
      byName === 'csv'
        ? 'The file is named .csv but holds JSON. Rename it to .json or export it as CSV.'
        : 'The file is named .json but does not hold JSON (it looks like CSV text). Rename it to .csv or export it as JSON.',
    );
  }
  return { scanner: byContent === 'csv' ? new CsvScanner(head) : new JsonScanner(), size };
}

async function readHead(filePath: string, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of createReadStream(filePath, { start: 0, end: bytes - 1 })) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks, total);
}

interface Scanner {
  /** Takes the next bytes; throws DataError at the first problem. */
  push(chunk: Buffer): void;
  /** The layout, once the first record has been read; null before. */
  layout(): FileLayout | null;
  finish(): Omit<FileCheck, 'bytes'>;
}

/**
 * Streams the file through the UTF-8 check and the scanner; with `wholeStructure` false the
 * reading stops once the layout is known.
 */
async function scanFile(
  filePath: string,
  scanner: Scanner,
  onLayout: ((layout: FileLayout) => void) | undefined,
  wholeStructure: boolean,
): Promise<void> {
  const utf8 = new Utf8Check();
  let announce = onLayout;
  let first = true;
  let bom = 0;
  try {
    for await (const raw of createReadStream(filePath, { highWaterMark: 1 << 20 })) {
      let chunk = raw as Buffer;
      if (first) {
        first = false;
        if (startsWith(chunk, [0xef, 0xbb, 0xbf])) {
          chunk = chunk.subarray(3);
          bom = 3;
        }
      }
      utf8.push(chunk);
      scanner.push(chunk);
      const layout = scanner.layout();
      if (layout) {
        announce?.(layout);
        announce = undefined;
        if (!wholeStructure) return; // the rest of the file is left unread
      }
    }
    utf8.finish();
  } catch (e) {
    if (!(e instanceof BadUtf8)) throw e;
    // Lines are counted only now, on the way to the message: counting them for every chunk
    // cost a tenth of the whole check.
    const line = 1 + (await newlinesBefore(filePath, bom, bom + e.offset));
    throw new DataError(
      'encoding',
      `The file is not valid UTF-8 (first bad byte 0x${e.byte
        .toString(16)
        .padStart(2, '0')} on line ${line}). Save it as UTF-8 and upload it again.`,
    );
  }
}

/** Where the first invalid byte is (offset after the BOM) and what it is. */
class BadUtf8 extends Error {
  constructor(
    readonly offset: number,
    readonly byte: number,
  ) {
    super('invalid UTF-8');
  }
}

/** Newlines in the file's bytes [start, end). */
async function newlinesBefore(filePath: string, start: number, end: number): Promise<number> {
  if (end <= start) return 0;
  let n = 0;
  for await (const chunk of createReadStream(filePath, { start, end: end - 1 })) {
    n += countNewlines(chunk as Buffer);
  }
  return n;
}

/**
 * UTF-8 validity across chunk boundaries. The fast path is Node's native check on whole
 * chunks; only a failing chunk is walked byte by byte to find the bad byte.
 */
class Utf8Check {
  private carry = Buffer.alloc(0);
  /** Bytes before `carry`. */
  private offset = 0;

  push(chunk: Buffer): void {
    const buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    // Hold back an incomplete sequence at the end for the next chunk.
    const cut = completeLength(buf);
    const whole = buf.subarray(0, cut);
    if (!isUtf8(whole)) this.fail(whole);
    this.offset += cut;
    this.carry = Buffer.from(buf.subarray(cut));
  }

  finish(): void {
    if (this.carry.length > 0) this.fail(this.carry);
  }

  private fail(buf: Buffer): never {
    const bad = firstInvalidUtf8(buf);
    throw new BadUtf8(this.offset + bad, buf[bad]!);
  }
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  let i = buf.indexOf(0x0a);
  while (i !== -1) {
    n++;
    i = buf.indexOf(0x0a, i + 1);
  }
  return n;
}

/** Length of `buf` without a trailing incomplete (but so far valid-looking) UTF-8 sequence. */
function completeLength(buf: Buffer): number {
  const n = buf.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = buf[n - back]!;
    if ((b & 0xc0) !== 0x80) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return need > back ? n - back : n;
    }
  }
  return n;
}

/** Index of the first byte that starts an invalid UTF-8 sequence. */
function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    let len: number;
    if (b < 0x80) len = 1;
    else if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) len = 3;
    else if (b >= 0xf0 && b <= 0xf4) len = 4;
    else return i;
    if (i + len > buf.length) return i;
    if (!isUtf8(buf.subarray(i, i + len))) return i;
    i += len;
  }
  return Math.max(0, buf.length - 1);
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const DELIMITERS: CsvDelimiter[] = [',', ';', '\t', '|'];

/** The delimiter of a CSV file: the candidate found most often, outside quotes, in the header. */
export function detectDelimiter(head: Buffer): CsvDelimiter {
  let start = startsWith(head, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (start < head.length && (head[start] === LF || head[start] === CR)) start++;
  const counts = new Map<number, number>();
  let inQuotes = false;
  for (let i = start; i < head.length; i++) {
    const b = head[i]!;
    if (b === QUOTE) inQuotes = !inQuotes;
    else if (!inQuotes && (b === LF || b === CR)) break;
    else if (!inQuotes) counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const c = counts.get(d.charCodeAt(0)) ?? 0;
    if (c > bestCount) {
      best = d;
      bestCount = c;
    }
  }
  return best;
}

/**
 * Counts the fields of every CSV record (RFC 4180 quoting: a quote opens a quoted section only
 * at the start of a field, and "" inside one is a literal quote) and refuses the first record
 * whose count differs from the header's. Blank lines are skipped, as DuckDB skips them.
 */
class CsvScanner implements Scanner {
  private readonly delim: number;
  readonly delimiter: CsvDelimiter;
  private header: string[] | null = null;
  private headerBytes: number[] = [];
  private headerFields: string[] = [];
  private fields = 0;
  private fieldStart = true;
  private inQuotes = false;
  private quoteSeen = false;
  private lineHasContent = false;
  private line = 1;
  private recordLine = 1;
  private quoteOpenedLine = 0;
  private records = 0;
  private prevCr = false;
  /** A whole line with the header's field count (no quotes, no CR), once the header is read. */
  private linesPattern: RegExp | null = null;

  constructor(head: Buffer) {
    this.delimiter = detectDelimiter(head);
    this.delim = this.delimiter.charCodeAt(0);
  }

  push(chunk: Buffer): void {
    let i = 0;
    // Positions of the next quote and carriage return in this chunk, found once and reused, so
    // the fast path below stays linear.
    let nextQuote = -2;
    let nextCr = -2;
    // Tried once per chunk: after a miss the rest of the chunk goes line by line (trying again
    // at every line would scan the rest of the chunk once per line).
    let tryAll = this.linesPattern !== null;
    while (i < chunk.length) {
      if (tryAll && this.atRecordStart()) {
        // Fastest path: every whole line left in the chunk at once, when none has a quote or a
        // carriage return. One native regular-expression pass replaces each line with exactly
        // the header's field count by one "x"; anything else left over (a blank or ragged line)
        // sends the lines back through the line-at-a-time path below, which names the problem.
        const last = chunk.lastIndexOf(LF);
        if (last < i) break;
        if (nextQuote !== -1 && nextQuote < i) nextQuote = chunk.indexOf(QUOTE, i);
        if (nextCr !== -1 && nextCr < i) nextCr = chunk.indexOf(CR, i);
        tryAll = false;
        if ((nextQuote === -1 || nextQuote > last) && (nextCr === -1 || nextCr > last)) {
          const marks = chunk.toString('latin1', i, last + 1).replace(this.linesPattern!, 'x');
          if (ONLY_MARKS.test(marks)) {
            this.records += marks.length;
            this.line += marks.length;
            this.recordLine = this.line;
            i = last + 1;
            continue;
          }
        }
      }
      if (this.atRecordStart()) {
        // Fast path for a whole line without quotes: count its delimiters natively.
        const nl = chunk.indexOf(LF, i);
        if (nl === -1) break;
        if (nextQuote !== -1 && nextQuote < i) nextQuote = chunk.indexOf(QUOTE, i);
        if (nextCr !== -1 && nextCr < i) nextCr = chunk.indexOf(CR, i);
        let end = nl;
        if (end > i && chunk[end - 1] === CR) end--;
        const quoted = nextQuote !== -1 && nextQuote < nl;
        const loneCr = nextCr !== -1 && nextCr < end;
        if (!quoted && !loneCr) {
          this.countLine(chunk, i, end);
          this.endRecord();
          this.line++;
          i = nl + 1;
          continue;
        }
      }
      i = this.slowByte(chunk, i);
    }
    // What is left of the chunk (a line that goes on in the next chunk) byte by byte.
    for (; i < chunk.length; i++) this.slowByte(chunk, i);
  }

  /** Between records, outside quotes, with the header read: where the fast path may start. */
  private atRecordStart(): boolean {
    return (
      this.header !== null &&
      !this.inQuotes &&
      this.fields === 0 &&
      this.fieldStart &&
      !this.lineHasContent &&
      !this.prevCr
    );
  }

  private countLine(chunk: Buffer, start: number, end: number): void {
    let count = 0;
    let at = chunk.indexOf(this.delim, start);
    while (at !== -1 && at < end) {
      count++;
      at = chunk.indexOf(this.delim, at + 1);
    }
    this.fields = count;
    if (count > 0) this.lineHasContent = true;
    else {
      for (let k = start; k < end; k++) {
        const b = chunk[k]!;
        if (b !== 0x20 && b !== 0x09) {
          this.lineHasContent = true;
          break;
        }
      }
    }
  }

  /** One byte through the full state machine; returns the next index. */
  private slowByte(chunk: Buffer, i: number): number {
    this.byte(chunk[i]!);
    return i + 1;
  }

  private byte(b: number): void {
    const d = this.delim;
    if (this.header === null) {
      this.headerBytes.push(b);
      if (this.headerBytes.length > MAX_HEADER_BYTES) {
        throw new DataError(
          'malformed',
          'The first line (the header) is longer than 1 MB; this does not look like a CSV file.',
        );
      }
    }
    if (this.inQuotes) {
      if (b === QUOTE) {
        this.inQuotes = false;
        this.quoteSeen = true;
      } else if (b === LF) this.line++;
      return;
    }
    if (b === LF || b === CR) {
      // \r\n counts once; a lone \r ends a record too (old Mac files).
      if (b === LF && this.prevCr) {
        this.prevCr = false;
        return;
      }
      this.prevCr = b === CR;
      this.endRecord();
      this.line++;
      return;
    }
    this.prevCr = false;
    if (b === QUOTE) {
      if (this.fieldStart) {
        this.inQuotes = true;
        this.quoteOpenedLine = this.line;
      } else if (this.quoteSeen) {
        // "" inside a quoted field: the second quote re-opens it.
        this.inQuotes = true;
      }
      this.fieldStart = false;
      this.lineHasContent = true;
      return;
    }
    this.quoteSeen = false;
    if (b === d) {
      this.fields++;
      this.fieldStart = true;
      this.lineHasContent = true;
      return;
    }
    this.fieldStart = false;
    if (b !== 0x20 && b !== 0x09) this.lineHasContent = true;
  }

  private endRecord(): void {
    const hadContent = this.lineHasContent || this.fields > 0;
    const count = this.fields + 1;
    this.fields = 0;
    this.fieldStart = true;
    this.quoteSeen = false;
    this.lineHasContent = false;
    const startLine = this.recordLine;
    this.recordLine = this.line + 1;
    if (!hadContent) {
      if (this.header === null) this.headerBytes = [];
      return;
    }
    if (this.header === null) {
      this.header = parseCsvLine(Buffer.from(this.headerBytes).toString('utf8'), this.delimiter);
      this.headerBytes = [];
      this.headerFields = this.header;
      if (this.header.length > MAX_COLUMNS) {
        throw new DataError(
          'too_many_columns',
          `The file has ${this.header.length} columns; at most ${MAX_COLUMNS} are supported.`,
        );
      }
      this.linesPattern = linesPattern(this.delimiter, this.header.length);
      return;
    }
    if (count !== this.headerFields.length) {
      throw new DataError(
        'ragged_rows',
        `Row ${this.records + 1} (line ${startLine}) has ${count} field${count === 1 ? '' : 's'} ` +
          `but the header has ${this.headerFields.length}. Every row needs the same number of ` +
          `fields; check for a missing or extra "${this.delimiter === '\t' ? '\\t' : this.delimiter}" ` +
          'or an unquoted delimiter inside a value.',
      );
    }
    this.records++;
  }

  layout(): FileLayout | null {
    return this.header && { format: 'csv', delimiter: this.delimiter, header: this.header };
  }

  finish(): Omit<FileCheck, 'bytes'> {
    if (this.inQuotes) {
      throw new DataError(
        'malformed',
        `A quoted value opened on line ${this.quoteOpenedLine} is never closed.`,
      );
    }
    this.endRecord();
    if (this.header === null) throw new DataError('empty', 'The file is empty.');
    if (this.records === 0) {
      throw new DataError('empty', NO_DATA_ROWS);
    }
    return {
      format: 'csv',
      delimiter: this.delimiter,
      header: this.header,
      records: this.records,
    };
  }
}

const ONLY_MARKS = /^x*$/;

/**
 * A line (ending in LF) with exactly `fields` fields split by `delimiter`, for text that holds
 * no quote and no CR; null for one field, where a blank line (skipped, not a row) would match.
 * Latin-1 text of UTF-8 bytes: the delimiters and LF never occur inside a multi-byte character.
 */
export function linesPattern(delimiter: CsvDelimiter, fields: number): RegExp | null {
  if (fields < 2) return null;
  const d = delimiter === '|' ? '\\|' : delimiter === '\t' ? '\\t' : delimiter;
  return new RegExp(`[^${d}\\n]*(?:${d}[^${d}\\n]*){${fields - 1}}\\n`, 'g');
}

/** Splits one CSV line (the header) into fields, undoing RFC 4180 quoting. */
export function parseCsvLine(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inQuotes = false;
  let i = 0;
  const text = line.replace(/^\uFEFF/, '').replace(/[\r\n]+$/, '');
  while (i < text.length) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i += 2;
        continue;
      }
      if (ch === '"') inQuotes = false;
      else cur += ch;
    } else if (ch === '"' && cur === '') inQuotes = true;
    else if (ch === delimiter) {
      out.push(cur);
      cur = '';
    } else cur += ch;
    i++;
  }
  out.push(cur);
  return out;
}

/**
 * Follows the JSON structure (strings and escapes, nesting depth) far enough to tell an array
 * of records or NDJSON from anything else and to count the records. Full JSON validity is
 * left to DuckDB, which reads the file next.
 */
/**
 * Bounds on a JSON data file's shape, checked by the scan before DuckDB reads the file. DuckDB's
 * schema inference grows far faster than the file with nesting (a 10 KB file nested 5,000 deep
 * took gigabytes) and with the number of distinct field names, whatever PROFILING_MEMORY_LIMIT
 * says; records of tabular data need neither.
 */
export const JSON_LIMITS = {
  /** Objects and arrays inside one another, the outer array of records included. */
  depth: 32,
  /** Distinct field names in the whole file, at any depth (a column each, or a struct field). */
  fieldNames: 10_000,
  /** Bytes of one field name as written in the file. */
  fieldNameBytes: 1024,
} as const;

class JsonScanner implements Scanner {
  private jsonLayout: JsonLayout | null = null;
  private depth = 0;
  private inString = false;
  private escape = false;
  private records = 0;
  private line = 1;
  private topValues = 0;
  private closedArray = false;
  /** Array layout: an element may start (after '[' or ','). */
  private expectElement = false;
  /** NDJSON layout: the single top-level object holds nested data (not a flat record). */
  private nested = false;
  /** Whether each open container is an object (its keys are counted), by depth. */
  private readonly inObject = new Uint8Array(JSON_LIMITS.depth + 2);
  /** The next string in the current object is a field name (after '{' or ','). */
  private expectKey = false;
  /** The string being read is a field name: its bytes so far (earlier chunks) and its length. */
  private key: { parts: Buffer[]; bytes: number; start: number } | null = null;
  private readonly fieldNames = new Set<string>();

  push(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === LF) this.line++;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (b === 0x5c) this.escape = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.key) this.endKey(chunk, i);
        }
        continue;
      }
      if (b === 0x20 || b === 0x09 || b === LF || b === CR) continue;
      if (this.jsonLayout === null) {
        this.jsonLayout = b === 0x5b ? 'array' : 'ndjson';
      }
      if (this.jsonLayout === 'array') this.arrayByte(b);
      else this.ndjsonByte(b);
      if (b === QUOTE) {
        this.inString = true;
        if (this.expectKey) this.key = { parts: [], bytes: 0, start: i + 1 };
        this.expectKey = false;
      } else if (b === 0x7b || b === 0x5b) {
        if (++this.depth > JSON_LIMITS.depth) {
          throw new DataError(
            'too_complex',
            `The JSON file nests objects and arrays deeper than the limit of ${JSON_LIMITS.depth} ` +
              `levels (line ${this.line}). Records of data need only a few levels.`,
          );
        }
        this.inObject[this.depth] = b === 0x7b ? 1 : 0;
        this.expectKey = b === 0x7b;
      } else if (b === 0x7d || b === 0x5d) {
        this.depth--;
        this.expectKey = false;
      } else if (b === 0x2c) {
        this.expectKey = this.depth > 0 && this.inObject[this.depth] === 1;
      }
    }
    // A field name that goes on in the next chunk: keep what this chunk holds of it.
    if (this.key && this.inString) {
      this.addKeyBytes(chunk.subarray(this.key.start));
      this.key.start = 0;
    }
  }

  private addKeyBytes(part: Buffer): void {
    const key = this.key!;
    key.bytes += part.length;
    if (key.bytes > JSON_LIMITS.fieldNameBytes) {
      throw new DataError(
        'too_complex',
        `A field name on line ${this.line} of the JSON file is longer than the limit of ` +
          `${JSON_LIMITS.fieldNameBytes} bytes.`,
      );
    }
    key.parts.push(Buffer.from(part));
  }

  /** The field name ends at `end` (its closing quote): count it among the file's names. */
  private endKey(chunk: Buffer, end: number): void {
    const key = this.key!;
    this.key = null;
    let name: string;
    if (key.parts.length === 0 && end - key.start <= JSON_LIMITS.fieldNameBytes) {
      // The usual case: the whole name in this chunk, read without copying.
      name = chunk.toString('latin1', key.start, end);
    } else {
      this.key = key;
      this.addKeyBytes(chunk.subarray(key.start, end));
      this.key = null;
      name = Buffer.concat(key.parts).toString('latin1');
    }
    if (this.fieldNames.has(name)) return;
    this.fieldNames.add(name);
    if (this.fieldNames.size > JSON_LIMITS.fieldNames) {
      throw new DataError(
        'too_complex',
        `The JSON file has more than the limit of ${JSON_LIMITS.fieldNames} distinct field ` +
          `names (line ${this.line}). Each becomes a column or a nested field.`,
      );
    }
  }

  private arrayByte(b: number): void {
    if (this.closedArray) {
      throw new DataError(
        'malformed',
        `Unexpected data after the end of the JSON array on line ${this.line}.`,
      );
    }
    if (this.depth === 0) {
      this.expectElement = true;
      return;
    }
    if (this.depth !== 1) return;
    if (b === 0x5d) {
      this.closedArray = true;
      return;
    }
    if (b === 0x2c) {
      this.expectElement = true;
      return;
    }
    if (this.expectElement) {
      this.expectElement = false;
      if (b !== 0x7b) {
        throw new DataError(
          'malformed',
          `Element ${this.records + 1} of the JSON array (line ${this.line}) is not an object. ` +
            'Expected an array of records like [{"year": 2020, "gdp": 1.2}, ...].',
        );
      }
      this.records++;
    }
  }

  private ndjsonByte(b: number): void {
    if (this.depth === 0) {
      if (b !== 0x7b) {
        throw new DataError(
          'malformed',
          `Line ${this.line} is not a JSON object. Expected an array of records or one JSON object per line (NDJSON).`,
        );
      }
      this.topValues++;
      this.records++;
      return;
    }
    if (this.depth === 1 && (b === 0x7b || b === 0x5b)) this.nested = true;
  }

  layout(): FileLayout | null {
    return this.jsonLayout && { format: 'json', jsonLayout: this.jsonLayout };
  }

  finish(): Omit<FileCheck, 'bytes'> {
    if (this.inString || this.depth !== 0 || (this.jsonLayout === 'array' && !this.closedArray)) {
      throw new DataError('malformed', 'The JSON file ends before its structure is closed.');
    }
    if (this.records === 0) {
      throw new DataError('empty', 'The JSON file holds no records.');
    }
    if (this.jsonLayout === 'ndjson' && this.topValues === 1 && this.nested) {
      throw new DataError(
        'malformed',
        'The JSON file holds one object with nested data, not a list of records. Expected an ' +
          'array of records like [{"year": 2020, "gdp": 1.2}, ...] or one object per line (NDJSON).',
      );
    }
    return { format: 'json', jsonLayout: this.jsonLayout ?? 'array', records: this.records };
  }
}
