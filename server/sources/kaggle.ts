import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { HttpClient } from '../platform/http';
import { DataSourceError, dataSourceError, today, type FetchedDataset } from './data-source';
import type { Downloader } from './download';
import { extractZipEntry, listZip, ZipError } from './zip';

/**
 * Kaggle datasets through Kaggle's public API (https://github.com/Kaggle/kaggle-api): the
 * dataset's metadata and file list, then one CSV or JSON file, downloaded as a stream (Kaggle
 * may send it zipped; the file is taken out of the archive). Dataset ids: `owner/dataset`
 * (its first CSV, else JSON, file) or `owner/dataset/file.csv`. Kaggle needs the user's
 * username and API key (HTTP basic auth).
 */

export const KAGGLE_DEFAULT_BASE_URL = 'https://www.kaggle.com';

export interface KaggleCredentials {
  username?: string;
  key?: string;
}

export interface KaggleOptions {
  http: HttpClient;
  downloader: Downloader;
  baseUrl?: string;
  /** Largest file taken out of a ZIP. Default 100 MB. */
  maxBytes?: number;
  now?: () => number;
}

export interface KaggleId {
  owner: string;
  dataset: string;
  file: string | null;
}

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export function parseKaggleId(raw: string): KaggleId {
  const id = raw
    .trim()
    .replace(/^https?:\/\/(www\.)?kaggle\.com\/datasets\//i, '')
    .replace(/\/+$/, '');
  const [owner, dataset, ...rest] = id.split('/');
  const file = rest.length > 0 ? rest.join('/') : null;
  if (
    !owner ||
    !dataset ||
    !SLUG.test(owner) ||
    !SLUG.test(dataset) ||
    (file !== null && !/\.(csv|json)$/i.test(file))
  ) {
    throw new DataSourceError(
      'kaggle',
      'bad_id',
      `"${raw.trim()}" is not a Kaggle dataset id. Write owner/dataset (e.g. zillow/zecon), or owner/dataset/file.csv for one file of it.`,
    );
  }
  return { owner, dataset, file };
}

interface DatasetView {
  title?: string;
  subtitle?: string;
  licenseName?: string;
  lastUpdated?: string;
  url?: string;
}
interface FileList {
  datasetFiles?: { name?: string; totalBytes?: number }[];
}

export interface KaggleClient {
  fetch(
    datasetId: string,
    dir: string,
    options: { credentials: KaggleCredentials; signal?: AbortSignal },
  ): Promise<FetchedDataset>;
}

export function createKaggle(options: KaggleOptions): KaggleClient {
  const base = (options.baseUrl ?? KAGGLE_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const maxBytes = options.maxBytes ?? 100 * 1024 * 1024;
  const now = options.now ?? Date.now;

  return {
    async fetch(raw, dir, { credentials, signal }) {
      const id = parseKaggleId(raw);
      const username = credentials.username?.trim();
      const key = credentials.key?.trim();
      if (!username || !key) {
        throw new DataSourceError(
          'kaggle',
          'config',
          'Kaggle needs your username and API key: add them under Settings > API keys (create a key at https://www.kaggle.com/settings), or ask the administrator to set KAGGLE_USERNAME and KAGGLE_KEY.',
        );
      }
      const headers = {
        authorization: `Basic ${Buffer.from(`${username}:${key}`).toString('base64')}`,
      };
      const api = `${base}/api/v1/datasets`;
      const ref = `${encodeURIComponent(id.owner)}/${encodeURIComponent(id.dataset)}`;
      const get = async (url: string) => {
        const res = await options.http.request(url, { headers, signal });
        if (res.status === 401 || res.status === 403) {
          throw new DataSourceError(
            'kaggle',
            'config',
            'Kaggle refused the username and API key; check them under Settings > API keys.',
            { status: res.status },
          );
        }
        if (res.status === 404) {
          throw new DataSourceError(
            'kaggle',
            'not_found',
            `there is no dataset "${id.owner}/${id.dataset}" (or it is private to another account).`,
            { status: 404 },
          );
        }
        if (!res.ok)
          throw new DataSourceError(
            'kaggle',
            'status',
            `the service answered HTTP ${res.status}.`,
            { status: res.status },
          );
        return res.json();
      };
      try {
        const view = (await get(`${api}/view/${ref}`)) as DatasetView;
        const list = (await get(`${api}/list/${ref}`)) as FileList;
        const files = (list.datasetFiles ?? []).map((f) => f.name ?? '').filter(Boolean);
        const wanted =
          id.file ??
          files.find((f) => /\.csv$/i.test(f)) ??
          files.find((f) => /\.json$/i.test(f)) ??
          null;
        if (!wanted || !files.includes(wanted)) {
          throw new DataSourceError(
            'kaggle',
            'not_found',
            id.file
              ? `the dataset has no file "${id.file}" (it has: ${files.join(', ') || 'no files'}).`
              : `the dataset has no CSV or JSON file (it has: ${files.join(', ') || 'no files'}).`,
          );
        }
        const format = /\.json$/i.test(wanted) ? 'json' : 'csv';
        const target = path.join(dir, 'download');
        const got = await options.downloader.download(
          `${api}/download/${ref}/${encodeURIComponent(wanted)}`,
          target,
          { signal, headers },
        );
        let file = target;
        if (got.head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
          const entries = await listZip(target);
          const entry =
            entries.find((e) => path.basename(e.name) === path.basename(wanted)) ?? entries[0];
          if (!entry)
            throw new DataSourceError(
              'kaggle',
              'malformed',
              'the download is an empty ZIP archive.',
            );
          file = path.join(dir, 'unzipped');
          await extractZipEntry(target, entry, file, maxBytes);
          await rm(target, { force: true });
        }
        const title = view.title ?? `${id.owner}/${id.dataset}`;
        const page = `https://www.kaggle.com/datasets/${id.owner}/${id.dataset}`;
        return {
          source: 'kaggle',
          datasetId: `${id.owner}/${id.dataset}/${wanted}`,
          name: `${title} (${wanted})`,
          description: `${view.subtitle ? `${view.subtitle}. ` : ''}File ${wanted} of the Kaggle dataset ${id.owner}/${id.dataset}.`,
          file,
          format,
          fileName: path.basename(wanted),
          records: null,
          license: view.licenseName ?? 'See the dataset page on Kaggle.',
          citation: `${title}, Kaggle dataset ${id.owner}/${id.dataset}, file ${wanted}, retrieved ${today(now())} from ${page}.`,
          url: page,
          lastUpdated: view.lastUpdated ?? null,
        };
      } catch (error) {
        if (error instanceof ZipError)
          throw new DataSourceError(
            'kaggle',
            'malformed',
            `the download could not be unpacked: ${error.message}.`,
          );
        throw dataSourceError('kaggle', error);
      }
    },
  };
}
