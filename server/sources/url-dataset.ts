import path from 'node:path';
import { HttpError } from '../platform/http';
import { DataSourceError, dataSourceError, today, type FetchedDataset } from './data-source';
import type { Downloader } from './download';

/**
 * A data file at a public http(s) address. The download streams to disk through the SSRF
 * guard (no loopback, private, link-local or metadata addresses, in any spelling, checked on
 * the resolved address and after every redirect) with a size and a time cap. The format comes
 * from the file name, then the Content-Type, then the first bytes; the profiling engine checks
 * the content again before reading it.
 */

export interface UrlDatasetOptions {
  downloader: Downloader;
  now?: () => number;
}

export interface UrlDatasetClient {
  fetch(url: string, dir: string, signal?: AbortSignal): Promise<FetchedDataset>;
}

export function formatOf(fileName: string, contentType: string, head: Buffer): 'csv' | 'json' {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') return 'csv';
  if (ext === '.json' || ext === '.ndjson' || ext === '.jsonl') return 'json';
  if (/\b(csv|tab-separated-values)\b/.test(contentType)) return 'csv';
  if (/\bjson\b/.test(contentType)) return 'json';
  const first = head
    .toString('utf8', 0, Math.min(head.length, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()[0];
  return first === '[' || first === '{' ? 'json' : 'csv';
}

/** A file name safe to store and show: the URL's last segment, with the format's extension. */
function safeName(name: string, format: 'csv' | 'json'): string {
  const base = path
    .basename(name)
    .replace(/\.(csv|tsv|json|ndjson|jsonl|txt)$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(0, 100);
  return `${base || 'dataset'}.${format}`;
}

export function createUrlDatasets(options: UrlDatasetOptions): UrlDatasetClient {
  const now = options.now ?? Date.now;
  return {
    async fetch(raw, dir, signal) {
      const address = raw.trim();
      let url: URL;
      try {
        url = new URL(address);
      } catch {
        throw new DataSourceError(
          'url',
          'bad_id',
          `"${address}" is not a web address (it should start with https://).`,
        );
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new DataSourceError(
          'url',
          'bad_id',
          `only http(s) addresses can be fetched, not ${url.protocol}`,
        );
      }
      if (url.username || url.password) {
        throw new DataSourceError(
          'url',
          'bad_id',
          'addresses with a user name or password are not accepted.',
        );
      }
      const target = path.join(dir, 'download');
      try {
        const got = await options.downloader.download(url.toString(), target, { signal });
        const format = formatOf(got.fileName, got.contentType, got.head);
        const fileName = safeName(got.fileName, format);
        const shown = new URL(got.url);
        shown.search = '';
        return {
          source: 'url',
          datasetId: address,
          name: fileName.replace(/\.(csv|json)$/, ''),
          description: `Downloaded from ${shown.toString()} (${got.bytes} bytes).`,
          file: target,
          format,
          fileName,
          records: null,
          license: 'Unknown: check the terms of the site it came from.',
          citation: `${shown.toString()}, retrieved ${today(now())}.`,
          url: shown.toString(),
          lastUpdated: null,
        };
      } catch (error) {
        if (error instanceof HttpError && error.kind === 'status' && error.status === 404) {
          throw new DataSourceError(
            'url',
            'not_found',
            `nothing at ${url.origin}${url.pathname} (HTTP 404).`,
            { status: 404 },
          );
        }
        throw dataSourceError('url', error);
      }
    },
  };
}
