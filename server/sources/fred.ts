import path from 'node:path';
import { HttpError, type HttpClient } from '../platform/http';
import {
  DataSourceError,
  dataSourceError,
  numberOrNull,
  today,
  writeNdjson,
  type FetchedDataset,
} from './data-source';

/**
 * FRED (https://fred.stlouisfed.org/docs/api/fred/series_observations.html): every observation
 * of one series as records {date, value}; FRED's missing-value marker "." becomes an empty value.
 * The API needs a key (the user's, from Settings, or the server's FRED_API_KEY).
 */

export const FRED_DEFAULT_BASE_URL = 'https://api.stlouisfed.org';
const SERIES_ID = /^[A-Za-z0-9_]{1,50}$/;

export interface FredOptions {
  http: HttpClient;
  baseUrl?: string;
  now?: () => number;
}

interface Observations {
  units?: string;
  count?: number;
  observation_start?: string;
  observation_end?: string;
  observations?: { date?: string; value?: string }[];
}

export interface FredClient {
  fetch(
    seriesId: string,
    dir: string,
    options: { apiKey?: string; signal?: AbortSignal },
  ): Promise<FetchedDataset>;
}

const NO_KEY =
  'an API key is needed. Add your FRED key under Settings > API keys (free at https://fred.stlouisfed.org/docs/api/api_key.html), or ask the administrator to set FRED_API_KEY.';

export function createFred(options: FredOptions): FredClient {
  const base = (options.baseUrl ?? FRED_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  return {
    async fetch(raw, dir, { apiKey, signal }) {
      const seriesId = raw.trim().toUpperCase();
      if (!SERIES_ID.test(seriesId)) {
        throw new DataSourceError(
          'fred',
          'bad_id',
          `"${raw.trim()}" is not a FRED series id (letters, digits and _, e.g. GDP, UNRATE, CPIAUCSL).`,
        );
      }
      if (!apiKey?.trim()) throw new DataSourceError('fred', 'config', NO_KEY);
      const url = new URL(`${base}/fred/series/observations`);
      url.searchParams.set('series_id', seriesId);
      url.searchParams.set('file_type', 'json');
      const shown = url.toString();
      url.searchParams.set('api_key', apiKey.trim());
      let body: Observations;
      try {
        const res = await options.http.request(url, { signal });
        if (!res.ok) throw fredFailure(res.status, res.text(), seriesId);
        body = res.json() as Observations;
      } catch (error) {
        if (error instanceof HttpError && error.kind === 'status' && error.status === 400) {
          throw fredFailure(400, '', seriesId);
        }
        throw dataSourceError('fred', error);
      }
      const observations = body.observations;
      if (!Array.isArray(observations)) {
        throw new DataSourceError('fred', 'malformed', 'the reply has no observations list.');
      }
      const file = path.join(dir, `${seriesId}.json`);
      const records = await writeNdjson(
        file,
        observations.map((o) => ({ date: o.date ?? null, value: numberOrNull(o.value) })),
      );
      const missing = observations.filter((o) => numberOrNull(o.value) === null).length;
      return {
        source: 'fred',
        datasetId: seriesId,
        name: `FRED series ${seriesId}`,
        description:
          `FRED series ${seriesId}, ${body.observation_start ?? '?'} to ${body.observation_end ?? '?'}, ` +
          `${records} observations (units: ${body.units ?? 'as published'}; ${missing} missing, shown as "." by FRED).`,
        file,
        format: 'json',
        fileName: `${seriesId}.json`,
        records,
        license: 'See the series notes on FRED; some series are copyrighted by their source.',
        citation: `Federal Reserve Bank of St. Louis, FRED, series ${seriesId}, retrieved ${today(now())} from https://fred.stlouisfed.org/series/${seriesId}.`,
        url: shown,
        lastUpdated: null,
      };
    },
  };
}

/** FRED's error replies: {error_code, error_message}; 400 for an unknown series or a bad key. */
function fredFailure(status: number, text: string, seriesId: string): DataSourceError {
  let message: string;
  try {
    message = String((JSON.parse(text) as { error_message?: string }).error_message ?? '');
  } catch {
    message = '';
  }
  if (/api_key/i.test(message) || status === 401 || status === 403) {
    return new DataSourceError(
      'fred',
      'config',
      'FRED refused the API key. Check the key under Settings > API keys (a FRED key is 32 lower-case letters and digits).',
      { status },
    );
  }
  if (status === 400 || status === 404) {
    return new DataSourceError(
      'fred',
      'not_found',
      `there is no series "${seriesId}"${message ? ` (${message.replace(/\s+/g, ' ').trim()})` : ''}. Look the id up on https://fred.stlouisfed.org.`,
      { status },
    );
  }
  return new DataSourceError('fred', 'status', `the service answered HTTP ${status}.`, { status });
}
