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
 * IMF data through its SDMX 3.0 API (https://portal.api.imf.org): a dataflow and a series key,
 * read from the SDMX-JSON 2.0 data message as one record per observation, with a column per
 * series dimension that varies (COUNTRY, ...), TIME_PERIOD and value. Dimensions with one value
 * go into the description. Dataset ids: `IMF.WHD/WHDREO/GX1213.BCA_GDP_BP6.A`
 * (agency/dataflow/key) or `WHDREO/GX1213.BCA_GDP_BP6.A` (agency IMF.STA); `*` in a key
 * position means every value.
 */

export const IMF_DEFAULT_BASE_URL = 'https://api.imf.org/external/sdmx/3.0';
export const IMF_DEFAULT_AGENCY = 'IMF.STA';

export interface ImfOptions {
  http: HttpClient;
  baseUrl?: string;
  now?: () => number;
}

export interface ImfId {
  agency: string;
  flow: string;
  key: string;
}

const PART = /^[A-Za-z0-9_.@-]+$/;
const KEY = /^[A-Za-z0-9_.*+-]+$/;

export function parseImfId(raw: string): ImfId {
  const parts = raw.trim().split('/');
  const [agency, flow, key] =
    parts.length === 3 ? parts : parts.length === 2 ? [IMF_DEFAULT_AGENCY, ...parts] : [];
  if (!agency || !flow || !key || !PART.test(agency) || !PART.test(flow) || !KEY.test(key)) {
    throw new DataSourceError(
      'imf',
      'bad_id',
      `"${raw.trim()}" is not an IMF dataset id. Write agency/dataflow/key, e.g. IMF.WHD/WHDREO/GX1213.BCA_GDP_BP6.A (or dataflow/key for IMF.STA flows; * for every value of a key position).`,
    );
  }
  return { agency, flow, key };
}

interface Dimension {
  id: string;
  keyPosition?: number;
  values: { id?: string; value?: string; name?: string }[];
}
interface Message {
  data?: {
    dataSets?: {
      series?: Record<string, { observations?: Record<string, (string | number | null)[]> }>;
    }[];
    structures?: {
      dimensions?: { series?: Dimension[]; observation?: Dimension[] };
      links?: { urn?: string; title?: string }[];
    }[];
  };
}

const code = (v: Dimension['values'][number] | undefined) => v?.id ?? v?.value ?? null;

/** SDMX-JSON 2.0 data message -> records (one per observation) and the constant dimensions. */
export function sdmxRecords(message: Message): {
  records: Record<string, FlatValue>[];
  fixed: Record<string, string>;
  varying: string[];
} {
  const structure = message.data?.structures?.[0];
  const dataSet = message.data?.dataSets?.[0];
  const seriesDims = structure?.dimensions?.series ?? [];
  const obsDims = structure?.dimensions?.observation ?? [];
  if (!structure || !dataSet || obsDims.length === 0) {
    throw new DataSourceError('imf', 'malformed', 'the reply is not an SDMX-JSON data message.');
  }
  const varying = seriesDims.filter((d) => d.values.length > 1).map((d) => d.id);
  const fixed: Record<string, string> = {};
  for (const d of seriesDims) if (d.values.length === 1) fixed[d.id] = String(code(d.values[0]));
  const records: Record<string, FlatValue>[] = [];
  for (const [seriesKey, series] of Object.entries(dataSet.series ?? {})) {
    const positions = seriesKey.split(':').map(Number);
    const base: Record<string, FlatValue> = {};
    seriesDims.forEach((d, i) => {
      if (d.values.length > 1) base[d.id] = code(d.values[positions[i] ?? -1]);
    });
    for (const [obsKey, values] of Object.entries(series.observations ?? {})) {
      const obsPositions = obsKey.split(':').map(Number);
      const record: Record<string, FlatValue> = { ...base };
      obsDims.forEach((d, i) => {
        record[d.id] = code(d.values[obsPositions[i] ?? -1]);
      });
      record.value = numberOrNull(values[0]);
      records.push(record);
    }
  }
  return { records, fixed, varying };
}

export interface ImfClient {
  fetch(datasetId: string, dir: string, signal?: AbortSignal): Promise<FetchedDataset>;
}

export function createImf(options: ImfOptions): ImfClient {
  const base = (options.baseUrl ?? IMF_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  return {
    async fetch(datasetId, dir, signal) {
      const id = parseImfId(datasetId);
      const url = new URL(
        // The parts passed PART and KEY, which allow only URL-safe characters ('+' and '*' are
        // SDMX's own: "or" and "any").
        `${base}/data/dataflow/${id.agency}/${id.flow}/+/${id.key}`,
      );
      url.searchParams.set('dimensionAtObservation', 'TIME_PERIOD');
      url.searchParams.set('attributes', 'dsd');
      url.searchParams.set('measures', 'all');
      let message: Message;
      try {
        const res = await options.http.request(url, { signal });
        if (res.status === 404) {
          throw new DataSourceError(
            'imf',
            'not_found',
            `no data for "${datasetId.trim()}" (the dataflow or the series key does not exist, or has no observations).`,
            { status: 404 },
          );
        }
        if (!res.ok) {
          throw new DataSourceError(
            'imf',
            res.status === 400 || res.status === 422 ? 'bad_id' : 'status',
            `the service answered HTTP ${res.status} for "${datasetId.trim()}".`,
            { status: res.status },
          );
        }
        message = res.json() as Message;
      } catch (error) {
        throw dataSourceError('imf', error);
      }
      const { records, fixed, varying } = sdmxRecords(message);
      if (records.length === 0) {
        throw new DataSourceError(
          'imf',
          'not_found',
          `"${datasetId.trim()}" returned no observations.`,
        );
      }
      const file = path.join(dir, `${id.flow}.json`);
      const count = await writeNdjson(file, records);
      const fixedText = Object.entries(fixed)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      return {
        source: 'imf',
        datasetId: `${id.agency}/${id.flow}/${id.key}`,
        name: `IMF ${id.flow} ${id.key}`,
        description:
          `IMF dataflow ${id.agency}:${id.flow}, series key ${id.key}; ${count} observations` +
          `${varying.length > 0 ? ` by ${varying.join(', ')}` : ''}${fixedText ? ` (${fixedText})` : ''}.`,
        file,
        format: 'json',
        fileName: `${id.flow}.json`,
        records: count,
        license: 'IMF terms of use (https://www.imf.org/external/terms.htm).',
        citation: `International Monetary Fund, ${id.flow} (${id.agency}), series ${id.key}, retrieved ${today(now())} via the IMF SDMX 3.0 API.`,
        url: url.toString(),
        lastUpdated: null,
      };
    },
  };
}
