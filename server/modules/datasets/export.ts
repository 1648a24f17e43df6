import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DatasetDownloadFormat } from '../../../common/dataset-export';
import { createDuckDb, type DuckDb } from '../../engines/profiling/duckdb';
import { createDatasetFiles, type DatasetFiles } from '../../engines/profiling/files';
import { profilingService } from '../../engines/profiling/service';
import { literal, parquet } from '../../engines/profiling/sql';
import { AppError } from '../../platform/errors';

/**
 * A catalog dataset's stored data written out for download. The Data team keeps every dataset
 * with data as one Parquet copy in the profiling service's folder (DATA_DIR/services/profiling,
 * where the service host puts it); DuckDB reads that copy and writes the requested format to a
 * scratch file, which is streamed and then removed. One single-threaded DuckDB instance of its
 * own with a small memory cap (it spills to disk past it), so a download never competes with the
 * profiling engine's queue.
 */

export const NO_STORED_DATA =
  'This catalog entry has no stored data: it was described by hand. Add the data by upload or from an API to download it.';

const CONTENT_TYPES: Record<DatasetDownloadFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

/** COPY options per format: a header row for CSV; Parquet compressed as a download should be. */
const COPY_OPTIONS: Record<DatasetDownloadFormat, string> = {
  csv: 'FORMAT csv, HEADER true',
  parquet: 'FORMAT parquet, COMPRESSION zstd',
};

export interface ExportedFile {
  stream: Readable;
  bytes: number;
  contentType: string;
}

export interface DatasetExporter {
  write(datasetId: string, format: DatasetDownloadFormat): Promise<ExportedFile>;
  close(): void;
}

/**
 * "GDP (2020).csv" for a dataset named "GDP (2020)": the name without path separators, control
 * characters, quotes or characters Windows refuses, at most 120 characters, never empty.
 */
export function downloadFileName(name: string, format: DatasetDownloadFormat): string {
  const base =
    name
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^[.\s]+/, '')
      .slice(0, 120)
      .trim() || 'dataset';
  return `${base}.${format}`;
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function createDatasetExporter(dataDir: string): DatasetExporter {
  const files: DatasetFiles = createDatasetFiles(
    path.join(dataDir, 'services', profilingService.id),
  );
  let duck: DuckDb | null = null;
  const db = () =>
    (duck ??= createDuckDb({
      threads: 1,
      connections: 1,
      memoryLimit: '256MB',
      tempDirectory: path.join(files.root, 'duckdb-tmp-export'),
    }));

  return {
    async write(datasetId, format) {
      if (!(await files.hasData(datasetId))) throw new AppError('not_found', NO_STORED_DATA);
      const out = await files.scratch(`export.${format}`);
      const folder = path.dirname(out);
      try {
        await db().withConnection((conn) =>
          conn.run(
            `COPY (SELECT * FROM ${parquet(files.parquet(datasetId))}) TO ${literal(out)} (${COPY_OPTIONS[format]})`,
          ),
        );
        const { size } = await stat(out);
        const stream = createReadStream(out);
        const cleanUp = () => void rm(folder, { recursive: true, force: true });
        stream.once('close', cleanUp);
        return { stream, bytes: size, contentType: CONTENT_TYPES[format] };
      } catch (e) {
        await rm(folder, { recursive: true, force: true });
        throw e;
      }
    },
    close() {
      duck?.close();
      duck = null;
    },
  };
}
