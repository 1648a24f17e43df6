import { createWriteStream } from 'node:fs';
import { HttpError, displayUrl } from '../platform/http';

/**
 * What the Data team's connectors (World Bank, FRED, IMF, Kaggle, URL) share: the dataset they
 * bring back (a file on disk the profiling engine ingests, with what the catalog needs to
 * describe it) and one error type whose message tells the researcher what to do.
 */

export const DATA_SOURCE_IDS = ['world_bank', 'fred', 'imf', 'kaggle', 'url'] as const;
export type DataSourceId = (typeof DATA_SOURCE_IDS)[number];
export const DATA_SOURCE_LABELS: Record<DataSourceId, string> = {
  world_bank: 'World Bank',
  fred: 'FRED',
  imf: 'IMF',
  kaggle: 'Kaggle',
  url: 'URL',
};

/** A dataset fetched to disk. */
export interface FetchedDataset {
  source: DataSourceId;
  /** The id as the service knows it (normalised), e.g. USA/NY.GDP.MKTP.CD. */
  datasetId: string;
  name: string;
  description: string;
  /** The data file written (NDJSON records for API sources; the file itself for URL/Kaggle). */
  file: string;
  format: 'csv' | 'json';
  /** A file name with the right extension, for the catalog and downloads. */
  fileName: string;
  /** Records written (null when the file was downloaded as is). */
  records: number | null;
  license: string;
  /** How to cite it, with the retrieval date. */
  citation: string;
  /** Where it came from (no keys in it). */
  url: string;
  /** When the service last updated the data, when it says. */
  lastUpdated: string | null;
}

export type DataSourceErrorKind =
  | HttpError['kind']
  /** A key or credentials are missing or refused. */
  | 'config'
  /** The service has no dataset with that id. */
  | 'not_found'
  /** The id is not written the way the service needs. */
  | 'bad_id';

export class DataSourceError extends Error {
  constructor(
    readonly source: DataSourceId,
    readonly kind: DataSourceErrorKind,
    readonly detail: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(`${DATA_SOURCE_LABELS[source]}: ${detail}`, options);
    this.name = 'DataSourceError';
    this.status = options?.status;
  }
  readonly status: number | undefined;
}

/** Whatever a connector call threw, as a DataSourceError naming the source. */
export function dataSourceError(source: DataSourceId, error: unknown): DataSourceError {
  if (error instanceof DataSourceError) return error;
  if (error instanceof HttpError) {
    const detail =
      error.kind === 'status'
        ? `the service answered HTTP ${error.status ?? '?'} (${displayUrl(error.url)})`
        : error.message;
    return new DataSourceError(source, error.kind, detail, { cause: error, status: error.status });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new DataSourceError(source, 'malformed', message, { cause: error });
}

export type FlatValue = string | number | boolean | null;

/** Writes records as NDJSON, one line each, without holding them all. */
export async function writeNdjson(
  file: string,
  records: Iterable<Record<string, FlatValue>>,
): Promise<number> {
  const out = createWriteStream(file);
  let count = 0;
  try {
    for (const record of records) {
      if (!out.write(`${JSON.stringify(record)}\n`)) {
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
      count++;
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((e?: Error | null) => (e ? reject(e) : resolve())),
    );
  }
  return count;
}

/** Today as YYYY-MM-DD, for "retrieved on" in citations. */
export const today = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/** A number from a service's text value; its missing-value markers ('.', '', 'NA') as null. */
export function numberOrNull(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (t === '' || t === '.' || /^(na|n\/a|nan|null)$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}
