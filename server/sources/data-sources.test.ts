import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FRED_TEST_KEY,
  KAGGLE_TEST_KEY,
  KAGGLE_TEST_USER,
  startDataFixtures,
  type DataFixtures,
} from '../../test/fixtures/data-sources/server';
import { createProfilingEngine } from '../engines/profiling/index';
import { createHttpClient } from '../platform/http';
import { DataSourceError, type FetchedDataset } from './data-source';
import { createDataSources, DATA_QUERY_CACHE_MS, type DataSources } from './data-sources';
import { parseImfId } from './imf';
import { parseKaggleId } from './kaggle';
import { createWorldBank, parseWorldBankId } from './worldbank';

/** World Bank, FRED, IMF, Kaggle and URL datasets against the fixture server (real formats). */

let fixtures: DataFixtures;
let sources: DataSources;
let clock = Date.parse('2030-01-01T00:00:00Z');
const waits: number[] = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'data-sources-'));
const samples = path.join(import.meta.dirname, '../../test/fixtures/data-sources/samples');

beforeAll(async () => {
  fixtures = await startDataFixtures();
  sources = createDataSources({
    worldbankBaseUrl: fixtures.urls.worldbank,
    fredBaseUrl: fixtures.urls.fred,
    imfBaseUrl: fixtures.urls.imf,
    kaggleBaseUrl: fixtures.urls.kaggle,
    allowPrivateHosts: ['127.0.0.1'],
    timeoutMs: 1000,
    maxDownloadBytes: 1024 * 1024,
    downloadTimeoutMs: 2000,
    now: () => clock,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
});
afterAll(async () => {
  await sources.close();
  await fixtures.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fixtures.reset();
  sources.clearCache();
  waits.length = 0;
});

let n = 0;
const fresh = () => {
  const d = path.join(dir, String(n++));
  rmSync(d, { recursive: true, force: true });
  return mkdtempSync(`${d}-`);
};
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function failure(p: Promise<unknown>): Promise<DataSourceError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(DataSourceError);
    return e as DataSourceError;
  }
  throw new Error('expected a failure');
}

describe('World Bank', () => {
  it('reads every page of an indicator for chosen countries into records', async () => {
    const http = createHttpClient({ allowPrivateHosts: ['127.0.0.1'], cache: { ttlMs: 1000 } });
    const wb = createWorldBank({
      http,
      baseUrl: fixtures.urls.worldbank,
      perPage: 20,
      now: () => clock,
    });
    const got = await wb.fetch('jpn;usa/NY.GDP.MKTP.CD', fresh());
    await http.close();
    const pages = fixtures.requests.map((r) => r.query.page);
    expect(pages).toEqual(['1', '2', '3']);
    expect(fixtures.requests[0]!.path).toBe(
      '/worldbank/v2/country/JPN;USA/indicator/NY.GDP.MKTP.CD',
    );
    expect(got).toMatchObject({
      source: 'world_bank',
      datasetId: 'JPN;USA/NY.GDP.MKTP.CD',
      name: 'GDP (current US$) (JPN, USA)',
      format: 'json',
      records: 50,
      license: 'CC BY 4.0',
      lastUpdated: '2021-05-25',
    });
    expect(got.citation).toBe(
      `World Bank, World Development Indicators, indicator NY.GDP.MKTP.CD (JPN, USA), retrieved 2030-01-01 from ${fixtures.urls.worldbank}.`,
    );
    const rows = lines(got.file);
    expect(rows).toHaveLength(50);
    // The recording's first row: Japan 2020 has no value yet.
    expect(rows[0]).toEqual({
      country: 'Japan',
      country_id: 'JP',
      iso3: 'JPN',
      indicator: 'NY.GDP.MKTP.CD',
      date: '2020',
      value: null,
      unit: null,
      obs_status: null,
      decimal: 0,
    });
    expect(rows[1]).toMatchObject({ iso3: 'JPN', date: '2019', value: 5081769542379.77 });
  });

  it('takes one country from JPN/indicator', async () => {
    // The recorded page holds Japan's 50 most recent years only.
    const got = await sources.worldbank.fetch('JPN/NY.GDP.MKTP.CD', fresh());
    expect(new Set(lines(got.file).map((r) => r.iso3))).toEqual(new Set(['JPN']));
    expect(got.records).toBe(50);
    expect(fixtures.requests[0]!.query).toMatchObject({
      format: 'json',
      per_page: '1000',
      page: '1',
    });
  });

  it("turns the API's in-band error (HTTP 200) into an unknown-id message", async () => {
    const e = await failure(sources.worldbank.fetch('XYZ/NY.GDP.MKTP.CD', fresh()));
    expect(e.kind).toBe('not_found');
    expect(e.message).toBe(
      'World Bank: no data for "XYZ/NY.GDP.MKTP.CD": The provided parameter value is not valid (check the indicator code and the country codes).',
    );
    expect((await failure(sources.worldbank.fetch('NOT.AN.INDICATOR', fresh()))).kind).toBe(
      'not_found',
    );
  });

  it('refuses ids that are not written as the API needs', () => {
    expect(parseWorldBankId(' NY.GDP.PCAP.CD ')).toEqual({
      countries: 'all',
      indicator: 'NY.GDP.PCAP.CD',
    });
    expect(parseWorldBankId('usa/ny.gdp.pcap.cd')).toEqual({
      countries: 'USA',
      indicator: 'NY.GDP.PCAP.CD',
    });
    for (const bad of [
      'gdp per capita',
      'USA/',
      '/NY.GDP',
      'A/B/C',
      'UNITED STATES/NY.GDP.MKTP.CD',
    ]) {
      expect(() => parseWorldBankId(bad), bad).toThrow(/is not a World Bank indicator id/);
    }
  });

  it('keeps identical queries for an hour', async () => {
    await sources.worldbank.fetch('JPN/NY.GDP.MKTP.CD', fresh());
    await sources.worldbank.fetch('jpn/NY.GDP.MKTP.CD', fresh());
    expect(fixtures.requests).toHaveLength(1);
    await sources.worldbank.fetch('NY.GDP.MKTP.CD', fresh());
    expect(fixtures.requests).toHaveLength(2);
    clock += DATA_QUERY_CACHE_MS - 1000;
    await sources.worldbank.fetch('JPN/NY.GDP.MKTP.CD', fresh());
    expect(fixtures.requests).toHaveLength(2);
    clock += 2000;
    await sources.worldbank.fetch('JPN/NY.GDP.MKTP.CD', fresh());
    expect(fixtures.requests).toHaveLength(3);
  });

  it('waits as Retry-After says on a 429 and retries; gives up after the retries', async () => {
    fixtures.script('worldbank', [
      { kind: 'status', status: 429, headers: { 'retry-after': '7' } },
    ]);
    const got = await sources.worldbank.fetch('JPN/NY.GDP.MKTP.CD', fresh());
    expect(got.records).toBeGreaterThan(0);
    expect(waits).toEqual([7000]);
    fixtures.script(
      'worldbank',
      Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })),
    );
    const e = await failure(sources.worldbank.fetch('JPN;USA/NY.GDP.MKTP.CD', fresh()));
    expect(e.kind).toBe('status');
    expect(e.message).toMatch(/^World Bank: the service answered HTTP 503/);
    expect(waits).toHaveLength(4);
  });

  it('gives up on a reply that never comes, after the timeout', async () => {
    fixtures.script(
      'worldbank',
      Array.from({ length: 4 }, () => ({ kind: 'hang' as const })),
    );
    const e = await failure(sources.worldbank.fetch('JPN/NY.GDP.MKTP.CD', fresh()));
    expect(e.kind).toBe('timeout');
    expect(e.message).toMatch(/within 1000 ms/);
  });
});

describe('FRED', () => {
  it('reads a series with "." as missing values, and keeps the key out of what it returns', async () => {
    const got = await sources.fred.fetch('gdp', fresh(), { apiKey: FRED_TEST_KEY });
    expect(got).toMatchObject({ source: 'fred', datasetId: 'GDP', records: 315, format: 'json' });
    expect(got.description).toBe(
      'FRED series GDP, 1600-01-01 to 9999-12-31, 315 observations (units: lin; 4 missing, shown as "." by FRED).',
    );
    const rows = lines(got.file);
    expect(rows.slice(0, 5)).toEqual([
      { date: '1946-01-01', value: null },
      { date: '1946-04-01', value: null },
      { date: '1946-07-01', value: null },
      { date: '1946-10-01', value: null },
      { date: '1947-01-01', value: 243.164 },
    ]);
    expect(JSON.stringify(got)).not.toContain(FRED_TEST_KEY);
    expect(fixtures.requests[0]!.query).toMatchObject({
      series_id: 'GDP',
      file_type: 'json',
      api_key: FRED_TEST_KEY,
    });
  });

  it('says what to do without a key, with a refused key and for an unknown series', async () => {
    const none = await failure(sources.fred.fetch('GDP', fresh(), {}));
    expect(none.kind).toBe('config');
    expect(none.message).toMatch(
      /^FRED: an API key is needed\. Add your FRED key under Settings > API keys/,
    );
    expect(fixtures.requests).toHaveLength(0);
    const wrong = await failure(sources.fred.fetch('GDP', fresh(), { apiKey: 'wrong' }));
    expect(wrong.kind).toBe('config');
    expect(wrong.message).toMatch(/FRED refused the API key/);
    const unknown = await failure(
      sources.fred.fetch('NOSUCHSERIES', fresh(), { apiKey: FRED_TEST_KEY }),
    );
    expect(unknown.kind).toBe('not_found');
    expect(unknown.message).toBe(
      'FRED: there is no series "NOSUCHSERIES" (Bad Request. The series does not exist.). Look the id up on https://fred.stlouisfed.org.',
    );
    expect(
      (await failure(sources.fred.fetch('GDP; DROP', fresh(), { apiKey: FRED_TEST_KEY }))).kind,
    ).toBe('bad_id');
  });
});

describe('IMF SDMX', () => {
  it('reads one series: an observation per record, the fixed dimensions in the description', async () => {
    const got = await sources.imf.fetch('IMF.WHD/WHDREO/GX1213.BCA_GDP_BP6.A', fresh());
    expect(fixtures.requests[0]!.path).toBe(
      '/imf/data/dataflow/IMF.WHD/WHDREO/+/GX1213.BCA_GDP_BP6.A',
    );
    expect(fixtures.requests[0]!.query).toEqual({
      dimensionAtObservation: 'TIME_PERIOD',
      attributes: 'dsd',
      measures: 'all',
    });
    expect(got.records).toBe(55);
    expect(got.description).toBe(
      'IMF dataflow IMF.WHD:WHDREO, series key GX1213.BCA_GDP_BP6.A; 55 observations (COUNTRY GX1213, INDICATOR BCA_GDP_BP6, FREQUENCY A).',
    );
    const rows = lines(got.file);
    expect(rows.slice(0, 3)).toEqual([
      { TIME_PERIOD: '1976', value: -7.436 },
      { TIME_PERIOD: '1977', value: -7.05 },
      { TIME_PERIOD: '1978', value: -10.119 },
    ]);
  });

  it('reads every country of a panel with a column for the varying dimension', async () => {
    const got = await sources.imf.fetch('GFS_SOO/*.S13.G2M.G23_T.POGDP_PT.A', fresh());
    const rows = lines(got.file);
    expect(Object.keys(rows[0]!)).toEqual(['COUNTRY', 'TIME_PERIOD', 'value']);
    expect(new Set(rows.map((r) => r.COUNTRY)).size).toBe(194);
    expect(rows.every((r) => Number(r.TIME_PERIOD) >= 1972 && Number(r.TIME_PERIOD) <= 1976)).toBe(
      true,
    );
    expect(got.description).toMatch(/observations by COUNTRY \(SECTOR S13, /);
  });

  it('says when a dataflow or key has no data, and how an id is written', async () => {
    const e = await failure(sources.imf.fetch('IMF.STA/CPI/USA.PCPI_IX.M', fresh()));
    expect(e.kind).toBe('not_found');
    expect(e.message).toMatch(/^IMF: no data for "IMF.STA\/CPI\/USA.PCPI_IX.M"/);
    expect(parseImfId('WHDREO/GX1213.A')).toEqual({
      agency: 'IMF.STA',
      flow: 'WHDREO',
      key: 'GX1213.A',
    });
    expect(() => parseImfId('just-a-name')).toThrow(/agency\/dataflow\/key/);
    expect(() => parseImfId('IMF/FLOW/key with spaces')).toThrow(/is not an IMF dataset id/);
  });
});

describe('Kaggle', () => {
  const credentials = { username: KAGGLE_TEST_USER, key: KAGGLE_TEST_KEY };

  it('takes the first CSV file of a dataset out of the ZIP Kaggle sends', async () => {
    const got = await sources.kaggle.fetch('econ/mroz', fresh(), { credentials });
    expect(got).toMatchObject({
      source: 'kaggle',
      datasetId: 'econ/mroz/mroz.csv',
      name: 'Mroz (1987) female labour supply (mroz.csv)',
      format: 'csv',
      fileName: 'mroz.csv',
      license: 'GPL 3',
      lastUpdated: '2024-05-01T00:00:00Z',
    });
    expect(readFileSync(got.file)).toEqual(
      readFileSync(path.join(samples, 'datasets/wooldridge_mroz.csv')),
    );
    const auth = fixtures.requests.map((r) => r.headers.authorization);
    expect(new Set(auth)).toEqual(
      new Set([`Basic ${Buffer.from('ada:' + KAGGLE_TEST_KEY).toString('base64')}`]),
    );
  });

  it('takes a named JSON file as it comes', async () => {
    const got = await sources.kaggle.fetch(
      'https://www.kaggle.com/datasets/econ/mroz/unemployment.json',
      fresh(),
      { credentials },
    );
    expect(got.format).toBe('json');
    expect(readFileSync(got.file)).toEqual(
      readFileSync(path.join(samples, 'datasets/bls_unemployment_across_industries.json')),
    );
  });

  it('says what is wrong: no credentials, refused credentials, unknown dataset or file', async () => {
    const none = await failure(sources.kaggle.fetch('econ/mroz', fresh(), { credentials: {} }));
    expect(none.kind).toBe('config');
    expect(none.message).toMatch(/^Kaggle: Kaggle needs your username and API key/);
    expect(fixtures.requests).toHaveLength(0);
    const refused = await failure(
      sources.kaggle.fetch('econ/mroz', fresh(), { credentials: { username: 'ada', key: 'nope' } }),
    );
    expect(refused.message).toMatch(/refused the username and API key/);
    const unknown = await failure(sources.kaggle.fetch('econ/nothing', fresh(), { credentials }));
    expect(unknown.kind).toBe('not_found');
    expect(unknown.message).toMatch(/there is no dataset "econ\/nothing"/);
    const file = await failure(
      sources.kaggle.fetch('econ/mroz/other.csv', fresh(), { credentials }),
    );
    expect(file.message).toBe(
      'Kaggle: the dataset has no file "other.csv" (it has: notes.txt, mroz.csv, unemployment.json).',
    );
    expect(() => parseKaggleId('mroz')).toThrow(/owner\/dataset/);
    expect(() => parseKaggleId('econ/mroz/notes.txt')).toThrow(/owner\/dataset/);
  });
});

describe('URL datasets', () => {
  it('downloads a CSV and a JSON whose format only the Content-Type gives', async () => {
    const csv = await sources.url.fetch(`${fixtures.urls.files}/pwt.csv`, fresh());
    expect(csv).toMatchObject({ source: 'url', format: 'csv', fileName: 'pwt.csv', name: 'pwt' });
    expect(readFileSync(csv.file)).toEqual(
      readFileSync(path.join(samples, 'datasets/pwt10_sample_21_countries.csv')),
    );
    const json = await sources.url.fetch(`${fixtures.urls.files}/series?x=1`, fresh());
    expect(json).toMatchObject({ format: 'json', fileName: 'series.json' });
    expect(json.url).toBe(`${fixtures.urls.files}/series`);
  });

  it('follows a redirect to a permitted address', async () => {
    const got = await sources.url.fetch(`${fixtures.urls.files}/redirect-ok`, fresh());
    expect(got.fileName).toBe('pwt.csv');
  });

  it('re-checks every redirect: metadata, private and IPv6 loopback targets are refused', async () => {
    for (const [name, what] of [
      [
        'redirect-metadata',
        /169\.254\.169\.254: it is a link-local address \(this includes cloud metadata services\)/,
      ],
      ['redirect-private', /10\.0\.0\.1: it is a private network address/],
      ['redirect-ipv6-loopback', /::1\]?: it is a loopback address/],
    ] as const) {
      const e = await failure(sources.url.fetch(`${fixtures.urls.files}/${name}`, fresh()));
      expect(e.kind, name).toBe('refused');
      expect(e.message, name).toMatch(what);
    }
    expect(
      (await failure(sources.url.fetch(`${fixtures.urls.files}/redirect-loop`, fresh()))).kind,
    ).toBe('redirect');
  });

  it('caps the size, by the declared length and by the bytes that arrive, and leaves no file', async () => {
    const d = fresh();
    const declared = await failure(sources.url.fetch(`${fixtures.urls.files}/big.csv`, d));
    expect(declared.kind).toBe('too_large');
    expect(declared.message).toBe('URL: The file is larger than 1 MB.');
    const counted = await failure(sources.url.fetch(`${fixtures.urls.files}/big-chunked.csv`, d));
    expect(counted.kind).toBe('too_large');
    expect(() => readFileSync(path.join(d, 'download'))).toThrow();
  });

  it('says when nothing is there and refuses what is not a public http(s) address', async () => {
    expect(
      (await failure(sources.url.fetch(`${fixtures.urls.files}/missing.csv`, fresh()))).kind,
    ).toBe('not_found');
    for (const bad of [
      'not a url',
      'file:///etc/passwd',
      'ftp://example.org/a.csv',
      'https://user:pw@example.org/a.csv',
    ]) {
      expect((await failure(sources.url.fetch(bad, fresh()))).kind, bad).toBe('bad_id');
    }
  });
});

describe('the SSRF guard without an allow-list (production)', () => {
  let guarded: DataSources;
  beforeAll(() => {
    guarded = createDataSources({ downloadTimeoutMs: 2000, retries: 0 });
  });
  afterAll(() => guarded.close());

  const port = () => fixtures.port;
  const cases: [string, RegExp][] = [
    ['http://127.0.0.1:PORT/files/pwt.csv', /a loopback address/],
    ['http://localhost:PORT/files/pwt.csv', /a loopback address/],
    ['http://[::1]:PORT/files/pwt.csv', /a loopback address/],
    ['http://2130706433:PORT/files/pwt.csv', /a loopback address/], // 127.0.0.1 in decimal
    ['http://0x7f000001:PORT/files/pwt.csv', /a loopback address/], // in hex
    ['http://0177.0.0.1:PORT/files/pwt.csv', /a loopback address/], // in octal
    ['http://127.1:PORT/files/pwt.csv', /a loopback address/], // short form
    ['http://[::ffff:127.0.0.1]:PORT/files/pwt.csv', /a loopback address/], // IPv4-mapped IPv6
    ['http://0.0.0.0:PORT/files/pwt.csv', /an unspecified address/],
    ['http://10.1.2.3/data.csv', /a private network address/],
    ['http://172.16.0.1/data.csv', /a private network address/],
    ['http://192.168.0.10/data.csv', /a private network address/],
    [
      'http://169.254.169.254/latest/meta-data/',
      /link-local address \(this includes cloud metadata/,
    ],
    ['http://[fd00:ec2::254]/latest/meta-data/', /a private network address/],
    ['http://[fe80::1]/x.csv', /a link-local address/],
    ['http://100.64.0.1/x.csv', /a carrier-grade NAT address/],
    ['http://224.0.0.1/x.csv', /a multicast address/],
  ];
  it.each(cases)('refuses %s before connecting', async (template, what) => {
    const e = await failure(guarded.url.fetch(template.replace('PORT', String(port())), fresh()));
    expect(e.kind).toBe('refused');
    expect(e.message).toMatch(what);
    expect(fixtures.requests).toHaveLength(0);
  });
});

describe('what the connectors write is what the profiling engine reads', () => {
  it('profiles World Bank, FRED and IMF data with their time index', async () => {
    const engine = createProfilingEngine({ threads: 1 });
    try {
      const profileOf = async (got: FetchedDataset) => {
        await engine.load(got.file, got.fileName, got.format, `${got.file}.parquet`);
        return engine.profile(`${got.file}.parquet`);
      };
      const wb = await profileOf(await sources.worldbank.fetch('JPN/NY.GDP.MKTP.CD', fresh()));
      expect(wb.timeSeries).toMatchObject({
        columns: ['date'],
        source: 'period_text',
        frequency: 'yearly',
        periods: 50,
      });
      const fred = await profileOf(
        await sources.fred.fetch('GDP', fresh(), { apiKey: FRED_TEST_KEY }),
      );
      expect(fred.timeSeries).toMatchObject({
        source: 'date',
        frequency: 'quarterly',
        periods: 315,
      });
      expect(fred.columns.find((c) => c.name === 'value')).toMatchObject({
        missing: 4,
        count: 311,
      });
      const imf = await profileOf(
        await sources.imf.fetch('GFS_SOO/*.S13.G2M.G23_T.POGDP_PT.A', fresh()),
      );
      expect(imf.timeSeries).toMatchObject({
        columns: ['TIME_PERIOD'],
        frequency: 'yearly',
        start: '1972',
        end: '1976',
      });
    } finally {
      engine.close();
    }
  });
});
