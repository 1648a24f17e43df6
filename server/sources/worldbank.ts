import path from 'node:path';
import type { HttpClient } from '../platform/http';
import {
  DataSourceError,
  dataSourceError,
  numberOrNull,
  today,
  writeNdjson,
  type FetchedDataset,
  type FlatValue,
} from './data-source';

/**
 * World Bank Indicators API v2 (https://datahelpdesk.worldbank.org/knowledgebase/articles/889392):
 * one indicator for all countries or for chosen ones, every page, as records
 * {country, iso3, indicator, date, value, unit, obs_status, decimal}. Dataset ids:
 * `NY.GDP.MKTP.CD` (all countries and aggregates) or `USA/NY.GDP.MKTP.CD` (`JPN;USA/...` for
 * several). The API answers errors with HTTP 200 and a message list, which becomes a
 * DataSourceError here.
 */

export const WORLDBANK_DEFAULT_BASE_URL = 'https://api.worldbank.org';
const PER_PAGE = 1000;
export const WORLDBANK_MAX_PAGES = 50;

export interface WorldBankOptions {
  http: HttpClient;
  baseUrl?: string;
  /** Optional key some deployments send (the public API needs none). */
  apiKey?: string;
  maxPages?: number;
  /** Rows per page (the API allows up to about 32,500). Default 1000. */
  perPage?: number;
  now?: () => number;
}

export interface WorldBankId {
  countries: string;
  indicator: string;
}

const INDICATOR = /^[A-Za-z0-9][A-Za-z0-9_.]{1,99}$/;
const COUNTRIES = /^[A-Za-z0-9]{2,3}(;[A-Za-z0-9]{2,3})*$/;

/** `NY.GDP.MKTP.CD` or `USA/NY.GDP.MKTP.CD`; refuses anything else with the expected form. */
export function parseWorldBankId(raw: string): WorldBankId {
  const id = raw.trim();
  const [first, second, ...rest] = id.split('/');
  const countries = second === undefined ? 'all' : first!.toUpperCase();
  const indicator = (second ?? first ?? '').trim();
  if (
    rest.length > 0 ||
    !INDICATOR.test(indicator) ||
    (countries !== 'all' && !COUNTRIES.test(countries))
  ) {
    throw new DataSourceError(
      'world_bank',
      'bad_id',
      `"${id}" is not a World Bank indicator id. Write the indicator code (NY.GDP.MKTP.CD), or a country code and the indicator (USA/NY.GDP.MKTP.CD; several countries as JPN;USA/NY.GDP.MKTP.CD).`,
    );
  }
  return { countries, indicator: indicator.toUpperCase() };
}

interface Meta {
  page: number;
  pages: number;
  total: number;
  sourcename?: string;
  lastupdated?: string;
}
interface Row {
  indicator?: { id?: string; value?: string };
  country?: { id?: string; value?: string };
  countryiso3code?: string;
  date?: string;
  value?: number | string | null;
  unit?: string;
  obs_status?: string;
  decimal?: number;
}
interface ApiMessage {
  id?: string;
  key?: string;
  value?: string;
}

/** The API's in-band error ([{message: [...]}]) or null when the reply is data. */
function apiMessage(body: unknown): ApiMessage | null {
  if (!Array.isArray(body) || body.length === 0) return null;
  const first = body[0] as { message?: ApiMessage[] } | undefined;
  return first && Array.isArray(first.message) ? (first.message[0] ?? {}) : null;
}

export interface WorldBankClient {
  fetch(datasetId: string, dir: string, signal?: AbortSignal): Promise<FetchedDataset>;
}

export function createWorldBank(options: WorldBankOptions): WorldBankClient {
  const base = (options.baseUrl ?? WORLDBANK_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const maxPages = options.maxPages ?? WORLDBANK_MAX_PAGES;
  const perPage = options.perPage ?? PER_PAGE;
  const now = options.now ?? Date.now;

  const pageUrl = (id: WorldBankId, page: number) => {
    const url = new URL(
      `${base}/v2/country/${encodeURIComponent(id.countries).replaceAll('%3B', ';')}/indicator/${encodeURIComponent(id.indicator)}`,
    );
    url.searchParams.set('format', 'json');
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(page));
    if (options.apiKey) url.searchParams.set('api_key', options.apiKey);
    return url;
  };

  return {
    async fetch(datasetId, dir, signal) {
      const id = parseWorldBankId(datasetId);
      try {
        const rows: Row[] = [];
        let meta: Meta | null = null;
        for (let page = 1; page <= maxPages; page++) {
          const body = await options.http.getJson(pageUrl(id, page), { signal });
          const message = apiMessage(body);
          if (message) {
            throw new DataSourceError(
              'world_bank',
              'not_found',
              `no data for "${datasetId.trim()}": ${message.value ?? message.key ?? 'the API refused the request'} ` +
                `(check the indicator code and the country codes).`,
            );
          }
          if (!Array.isArray(body) || body.length < 2) {
            throw new DataSourceError(
              'world_bank',
              'malformed',
              'the reply is not the [meta, rows] list the API sends.',
            );
          }
          meta = body[0] as Meta;
          rows.push(...((body[1] as Row[] | null) ?? []));
          if (page >= Number(meta.pages ?? 1)) break;
          if (page === maxPages) {
            throw new DataSourceError(
              'world_bank',
              'too_large',
              `the indicator has more than ${maxPages * perPage} observations; choose countries (e.g. USA/${id.indicator}).`,
            );
          }
        }
        if (rows.length === 0) {
          throw new DataSourceError(
            'world_bank',
            'not_found',
            `"${datasetId.trim()}" returned no observations.`,
          );
        }
        const name = rows[0]?.indicator?.value ?? id.indicator;
        const file = path.join(dir, `${id.indicator}.json`);
        const records = await writeNdjson(
          file,
          rows.map((r): Record<string, FlatValue> => ({
            country: r.country?.value ?? null,
            country_id: r.country?.id ?? null,
            iso3: r.countryiso3code || null,
            indicator: r.indicator?.id ?? id.indicator,
            date: r.date ?? null,
            value: numberOrNull(r.value),
            unit: r.unit || null,
            obs_status: r.obs_status || null,
            decimal: typeof r.decimal === 'number' ? r.decimal : null,
          })),
        );
        const sourceName = meta?.sourcename ?? 'World Development Indicators';
        const where =
          id.countries === 'all'
            ? 'all countries and aggregates'
            : id.countries.replaceAll(';', ', ');
        return {
          source: 'world_bank',
          datasetId: id.countries === 'all' ? id.indicator : `${id.countries}/${id.indicator}`,
          name: `${name} (${where})`,
          description: `${name}, ${where}, from the World Bank's ${sourceName} (indicator ${id.indicator}); ${records} observations.`,
          file,
          format: 'json',
          fileName: `${id.indicator}.json`,
          records,
          license: 'CC BY 4.0',
          citation: `World Bank, ${sourceName}, indicator ${id.indicator} (${where}), retrieved ${today(now())} from ${base}.`,
          url: pageUrl(id, 1)
            .toString()
            .replace(/&api_key=[^&]*/, ''),
          lastUpdated: meta?.lastupdated ?? null,
        };
      } catch (error) {
        throw dataSourceError('world_bank', error);
      }
    },
  };
}
