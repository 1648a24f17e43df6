import { createHash } from 'node:crypto';
import {
  WORKING_FILE_MAX_BYTES,
  WORKING_FILES_DIR,
  WORKING_FILES_TOTAL_MAX_BYTES,
  type PlacedFile,
  type WorkingFile,
  type WorkingFileRef,
} from '../../../../common/teams/code';
import type { ProfilingService } from '../../../engines/profiling/service';
import { AppError, badRequest } from '../../../platform/errors';
import type { Workspace } from '../../kit';

/**
 * Project files a program is given: catalog datasets (their stored data written as CSV, which
 * every language reads without extra packages) and documents (a Model team `.mod` file, a
 * parameter table), placed read-only in the working directory's data/ folder. Each is read with
 * the rights of the user the session or the run acts for: a file they cannot read is answered as
 * missing (404), a file too large with 413, before anything runs.
 */

/** A file with its content, ready for the sandbox's `dataFiles` (name inside data/). */
export interface WorkingFileContent {
  placed: PlacedFile;
  /** Its file name inside data/. */
  fileName: string;
  content: Buffer;
}

/** Rows read from DuckDB per query when a dataset is written out as CSV. */
const PAGE_ROWS = 500;

/** A file name the sandbox accepts: a letter, then letters, digits and _, then the extension. */
export function safeFileName(name: string, extension: string, taken: Set<string>): string {
  let stem = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, 48);
  if (!/^[a-z]/.test(stem)) stem = `file_${stem}`.replace(/_+$/, '');
  let candidate = `${stem}.${extension}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem}_${n}.${extension}`;
  taken.add(candidate);
  return candidate;
}

/** One CSV cell: quoted when it holds a comma, a quote or a line break; empty for a missing value. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
        ? String(value)
        : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function tooLarge(what: string): AppError {
  return new AppError(
    'too_large',
    `${what} is too large to place in the working directory (at most ${WORKING_FILE_MAX_BYTES / 1024 / 1024} MB a file, ${WORKING_FILES_TOTAL_MAX_BYTES / 1024 / 1024} MB in all)`,
  );
}

/** A dataset's stored data as CSV, page by page, refused once past the size limit. */
async function datasetCsv(
  profiling: ProfilingService,
  datasetId: string,
  label: string,
): Promise<{ content: Buffer; columns: string[]; rows: number }> {
  const parquet = profiling.files.parquet(datasetId);
  const parts: string[] = [];
  let bytes = 0;
  let columns: string[] = [];
  let total = 0;
  for (let offset = 0; offset === 0 || offset < total; offset += PAGE_ROWS) {
    const page = await profiling.engine.preview(parquet, PAGE_ROWS, offset);
    total = page.total;
    if (offset === 0) {
      columns = page.columns.map((c) => c.name);
      const header = `${columns.map(csvCell).join(',')}\n`;
      parts.push(header);
      bytes += Buffer.byteLength(header);
    }
    for (const row of page.rows) {
      const line = `${row.map(csvCell).join(',')}\n`;
      bytes += Buffer.byteLength(line);
      if (bytes > WORKING_FILE_MAX_BYTES) throw tooLarge(label);
      parts.push(line);
    }
    if (page.rows.length === 0) break;
  }
  return { content: Buffer.from(parts.join(''), 'utf8'), columns, rows: total };
}

/** The extension a document is placed with: its own when its name has one, else its format's. */
function documentExtension(name: string, format: string): { stem: string; extension: string } {
  const own = /^(.*)\.([A-Za-z][A-Za-z0-9]{0,7})$/.exec(name.trim());
  if (own) return { stem: own[1]!, extension: own[2]!.toLowerCase() };
  return { stem: name, extension: format === 'pdf' ? 'txt' : format };
}

/**
 * Reads each file with the user's rights (404 for one they cannot see, 400 for a dataset without
 * stored data, 413 past the size limits) and names it inside data/.
 */
export async function readWorkingFiles(
  refs: readonly WorkingFileRef[],
  deps: { workspace: Workspace; profiling: ProfilingService },
): Promise<WorkingFileContent[]> {
  const taken = new Set<string>();
  const seen = new Set<string>();
  const out: WorkingFileContent[] = [];
  let total = 0;
  for (const ref of refs) {
    const key = `${ref.kind}:${ref.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let content: Buffer;
    let name: string;
    let fileName: string;
    let columns: string[] = [];
    let rows: number | null = null;
    if (ref.kind === 'dataset') {
      const dataset = await deps.workspace.datasets.get(ref.id).catch((err: unknown) => {
        throw asMissing(err, 'Dataset');
      });
      name = dataset.name;
      if (!(await deps.profiling.files.hasData(dataset.id))) {
        throw badRequest(
          `The dataset "${dataset.name}" has no stored data (it was described by hand), so it cannot be placed in the working directory`,
        );
      }
      const csv = await datasetCsv(deps.profiling, dataset.id, `The dataset "${dataset.name}"`);
      content = csv.content;
      columns = csv.columns;
      rows = csv.rows;
      fileName = safeFileName(dataset.name, 'csv', taken);
    } else {
      const doc = await deps.workspace.documents.read(ref.id).catch((err: unknown) => {
        throw asMissing(err, 'Document');
      });
      name = doc.name;
      if (doc.contentUrl && doc.content === '') throw tooLarge(`The document "${doc.name}"`);
      content = Buffer.from(doc.content, 'utf8');
      if (content.length > WORKING_FILE_MAX_BYTES) throw tooLarge(`The document "${doc.name}"`);
      const { stem, extension } = documentExtension(doc.name, doc.format);
      fileName = safeFileName(stem, extension, taken);
    }
    total += content.length;
    if (total > WORKING_FILES_TOTAL_MAX_BYTES) throw tooLarge('The chosen files together');
    out.push({
      fileName,
      content,
      placed: {
        kind: ref.kind,
        id: ref.id,
        name,
        path: `${WORKING_FILES_DIR}/${fileName}`,
        bytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        columns,
        rows,
      },
    });
  }
  return out;
}

/** A file another user owns, or one deleted since, is answered the same way: not found. */
function asMissing(err: unknown, what: string): unknown {
  if (err instanceof AppError && (err.kind === 'not_found' || err.kind === 'forbidden')) {
    return new AppError('not_found', `${what} not found`);
  }
  return err;
}

/** The files as the session's input stores them (kind, id and name). */
export function sessionWorkingFiles(files: readonly WorkingFileContent[]): WorkingFile[] {
  return files.map((f) => ({ kind: f.placed.kind, id: f.placed.id, name: f.placed.name }));
}

/** The sandbox's `dataFiles`: name inside data/ -> content. */
export function dataFilesOf(files: readonly WorkingFileContent[]): Record<string, Buffer> {
  return Object.fromEntries(files.map((f) => [f.fileName, f.content]));
}

/** What the model is told about the files: where each is, and a dataset's columns and rows. */
export function workingFilesPrompt(files: readonly PlacedFile[]): string {
  if (files.length === 0) return '';
  const lines = files.map((f) =>
    f.kind === 'dataset'
      ? `- ${f.path}: the project dataset "${f.name}", CSV with a header row, ${f.rows ?? 'unknown'} rows; columns: ${f.columns.slice(0, 60).join(', ')}${f.columns.length > 60 ? ', ...' : ''}`
      : `- ${f.path}: the project document "${f.name}"${f.path.endsWith('.mod') ? ' (a Dynare model file)' : ''}`,
  );
  return [
    'Input files (read-only, in the working directory; read them by these relative paths instead of simulating data or inventing parameter values):',
    ...lines,
  ].join('\n');
}
