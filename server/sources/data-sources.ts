import { createHttpClient } from '../platform/http';
import { createDownloader } from './download';
import { createFred, type FredClient } from './fred';
import { createImf, type ImfClient } from './imf';
import { createKaggle, type KaggleClient } from './kaggle';
import { createUrlDatasets, type UrlDatasetClient } from './url-dataset';
import { createWorldBank, type WorldBankClient } from './worldbank';

/**
 * The Data team's connectors, built once per process around one outbound HTTP client whose
 * cache keeps identical queries for an hour (docs/product-rules.md), and one streaming
 * downloader for data files. Base URLs come from WORLDBANK_BASE_URL, IMF_BASE_URL, FRED_BASE_URL
 * and KAGGLE_BASE_URL (the defaults are the services' own).
 */

export const DATA_QUERY_CACHE_MS = 60 * 60 * 1000;

export interface DataSourcesOptions {
  worldbankBaseUrl?: string;
  imfBaseUrl?: string;
  fredBaseUrl?: string;
  kaggleBaseUrl?: string;
  /** Per request to an API. Default 30 s. */
  timeoutMs?: number;
  /** Retries of 408, 429 and 5xx (honouring Retry-After) and network errors. Default 3. */
  retries?: number;
  /** Largest downloaded file. Default 100 MB. */
  maxDownloadBytes?: number;
  /** The whole of one download. Default 120 s. */
  downloadTimeoutMs?: number;
  /**
   * UNSAFE FOR PRODUCTION: addresses the SSRF guard lets through although they are loopback or
   * private (tests point the connectors at fixture servers on 127.0.0.1). Empty by default.
   * Applies to both the API client and the downloader; the two below add to one each.
   */
  allowPrivateHosts?: readonly string[];
  /** Hosts of operator-configured API base URLs (trusted for the API client only). */
  apiAllowPrivateHosts?: readonly string[];
  /** Hosts URL datasets and Kaggle downloads may reach although private (tests only). */
  downloadAllowPrivateHosts?: readonly string[];
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

export interface DataSources {
  worldbank: WorldBankClient;
  fred: FredClient;
  imf: ImfClient;
  kaggle: KaggleClient;
  url: UrlDatasetClient;
  /** Forgets cached API replies. */
  clearCache(): void;
  close(): Promise<void>;
}

export function createDataSources(options: DataSourcesOptions = {}): DataSources {
  const http = createHttpClient({
    userAgent: 'EconAgents data team (https://github.com/econagents)',
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    cache: { ttlMs: DATA_QUERY_CACHE_MS, maxEntries: 200 },
    maxResponseBytes: 50 * 1024 * 1024,
    allowPrivateHosts: [
      ...(options.allowPrivateHosts ?? []),
      ...(options.apiAllowPrivateHosts ?? []),
    ],
    sleep: options.sleep,
    now: options.now,
  });
  const downloader = createDownloader({
    maxBytes: options.maxDownloadBytes,
    timeoutMs: options.downloadTimeoutMs,
    allowPrivateHosts: [
      ...(options.allowPrivateHosts ?? []),
      ...(options.downloadAllowPrivateHosts ?? []),
    ],
    sleep: options.sleep,
    userAgent: 'EconAgents data team',
  });
  return {
    worldbank: createWorldBank({ http, baseUrl: options.worldbankBaseUrl, now: options.now }),
    fred: createFred({ http, baseUrl: options.fredBaseUrl, now: options.now }),
    imf: createImf({ http, baseUrl: options.imfBaseUrl, now: options.now }),
    kaggle: createKaggle({
      http,
      downloader,
      baseUrl: options.kaggleBaseUrl,
      maxBytes: options.maxDownloadBytes,
      now: options.now,
    }),
    url: createUrlDatasets({ downloader, now: options.now }),
    clearCache: () => http.clearCache(),
    close: async () => {
      await Promise.all([http.close(), downloader.close()]);
    },
  };
}
