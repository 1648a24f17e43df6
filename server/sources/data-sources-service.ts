import { z } from 'zod';
import { envOptionalString } from '../platform/env-fragments';
import { defineService } from '../platform/services';
import { createDataSources, type DataSources } from './data-sources';
import { FRED_DEFAULT_BASE_URL } from './fred';
import { IMF_DEFAULT_BASE_URL } from './imf';
import { KAGGLE_DEFAULT_BASE_URL } from './kaggle';
import { WORLDBANK_DEFAULT_BASE_URL } from './worldbank';

/**
 * The Data team's connectors as a kit service (docs/architecture.md §10), with the server's own
 * FRED key and Kaggle credentials, used when a researcher has not stored theirs in Settings.
 * A base URL an operator points at a private or loopback host (a mirror or a test fixture
 * server) is trusted for that host only; URL datasets reach private hosts only through
 * DATA_URL_ALLOW_PRIVATE_HOSTS, which is for tests and must stay empty in production.
 */
export interface DataSourcesService {
  sources: DataSources;
  /** The server's FRED key (FRED_API_KEY), if any. */
  fredApiKey: string | undefined;
  kaggle: { username: string | undefined; key: string | undefined };
}

const baseUrl = (name: string, fallback: string, what: string) =>
  z
    .url({ protocol: /^https?$/, message: `${name} must be an http(s) URL` })
    .default(fallback)
    .describe(
      `${what} base URL (a mirror or a test fixture server; a private or loopback host written here is trusted, that host only)`,
    );

const trusted = (configured: string, fallback: string) =>
  configured === fallback ? [] : [new URL(configured).hostname];

export const dataSourcesService = defineService({
  id: 'data-sources',
  env: z.object({
    WORLDBANK_BASE_URL: baseUrl(
      'WORLDBANK_BASE_URL',
      WORLDBANK_DEFAULT_BASE_URL,
      'World Bank Indicators API',
    ),
    IMF_BASE_URL: baseUrl('IMF_BASE_URL', IMF_DEFAULT_BASE_URL, 'IMF SDMX 3.0 API'),
    FRED_BASE_URL: baseUrl('FRED_BASE_URL', FRED_DEFAULT_BASE_URL, 'FRED API'),
    KAGGLE_BASE_URL: baseUrl('KAGGLE_BASE_URL', KAGGLE_DEFAULT_BASE_URL, 'Kaggle'),
    FRED_API_KEY: envOptionalString.describe(
      'FRED API key used when a researcher has not stored their own under Settings > API keys',
    ),
    KAGGLE_USERNAME: envOptionalString.describe(
      'Kaggle username used when a researcher has stored none',
    ),
    KAGGLE_KEY: envOptionalString.describe('Kaggle API key used with KAGGLE_USERNAME'),
    DATA_URL_ALLOW_PRIVATE_HOSTS: envOptionalString.describe(
      'UNSAFE FOR PRODUCTION: comma-separated hosts, addresses or CIDR ranges that URL datasets may fetch from although they are private or loopback (tests only; empty by default)',
    ),
  }),
  create({ env }): DataSourcesService {
    const api = [
      ...trusted(env.WORLDBANK_BASE_URL, WORLDBANK_DEFAULT_BASE_URL),
      ...trusted(env.IMF_BASE_URL, IMF_DEFAULT_BASE_URL),
      ...trusted(env.FRED_BASE_URL, FRED_DEFAULT_BASE_URL),
      ...trusted(env.KAGGLE_BASE_URL, KAGGLE_DEFAULT_BASE_URL),
    ];
    const urls = (env.DATA_URL_ALLOW_PRIVATE_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    return {
      sources: createDataSources({
        worldbankBaseUrl: env.WORLDBANK_BASE_URL,
        imfBaseUrl: env.IMF_BASE_URL,
        fredBaseUrl: env.FRED_BASE_URL,
        kaggleBaseUrl: env.KAGGLE_BASE_URL,
        apiAllowPrivateHosts: api,
        // Kaggle's files come through the downloader: its configured host is trusted there too.
        downloadAllowPrivateHosts: [
          ...urls,
          ...trusted(env.KAGGLE_BASE_URL, KAGGLE_DEFAULT_BASE_URL),
        ],
      }),
      fredApiKey: env.FRED_API_KEY,
      kaggle: { username: env.KAGGLE_USERNAME, key: env.KAGGLE_KEY },
    };
  },
  close: (service) => service.sources.close(),
});
