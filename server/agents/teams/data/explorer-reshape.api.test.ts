import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReplySchema } from '../../../../common/api';
import { datasetReplySchema } from '../../../../common/datasets';
import {
  datasetChartReplySchema,
  datasetRowsReplySchema,
  derivedDatasetReplySchema,
} from '../../../../common/teams/data';
import { bearer, createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { MULTIPART_HEADERS, multipartBody } from '../../../../test/multipart';
import { createDatasetsStore } from '../../../modules/datasets/store';

/**
 * The Data Explorer's reshape route (POST /api/agents/data-team/datasets/:id/reshape) on a whole
 * server: the World Bank's WDI file uploaded, reshaped to long and back to wide, each result a
 * derived catalog dataset; refusals in the API's error envelope (400, 404, 422); and the line
 * chart of the long table with one series per country and its years as years.
 */

const WDI = readFileSync(
  path.join(
    import.meta.dirname,
    '../../../../test/fixtures/data-sources/samples/datasets/wdi_gdp_per_capita_current_usd_1960_2021.csv',
  ),
);
const BASE = '/api/agents/data-team';
const IDS = ['Country Name', 'Country Code', 'Indicator Name', 'Indicator Code'];

let t: TestApp;
let token: string;
const created: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ PROFILING_THREADS: '1' });
  token = (await createUser(t.app)).accessToken;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function upload(name: string, fileName: string, content: Buffer | string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${BASE}/datasets/upload`,
    headers: { ...bearer(token), ...MULTIPART_HEADERS },
    payload: multipartBody({ name }, [{ name: fileName, content }]),
  });
  expect(res.statusCode).toBe(201);
  return derivedDatasetReplySchema.parse(res.json()).data.dataset.id;
}

describe('reshaping an Explorer dataset', () => {
  it('turns the WDI file from wide to long and back, each saved as a derived dataset', async () => {
    const api = client(t.app, token);
    created.wide = await upload('WDI GDP per capita', 'wdi.csv', WDI);

    const long = await api.post(`${BASE}/datasets/${created.wide}/reshape`, {
      name: 'WDI GDP per capita (long)',
      spec: { direction: 'wide_to_long', idColumns: IDS, valueName: 'gdp_pc' },
    });
    expect(long.status).toBe(201);
    const l = derivedDatasetReplySchema.parse(long.body);
    expect(l.message).toBe('Saved "WDI GDP per capita (long)"');
    expect(l.data.dataset).toMatchObject({ name: 'WDI GDP per capita (long)', recordCount: 16492 });
    expect(l.data.notes).toContain('3,343 empty cells are kept as missing values.');
    created.long = l.data.dataset.id;

    // In the catalog, with where it came from.
    const entry = datasetReplySchema.parse((await api.get(`/api/datasets/${created.long}`)).body)
      .data.dataset;
    expect(entry.format).toBe('parquet');
    expect(entry.metadata.citation).toBe(
      `Derived from catalog dataset ${created.wide} (WDI GDP per capita).`,
    );
    expect(entry.description).toMatch(
      /^Wide to long reshape of "WDI GDP per capita": Wide to long: 266 rows × 62 value columns/,
    );
    const row = await createDatasetsStore(t.ctx.db).find(created.long, undefined);
    // Stored data the Explorer made: kept like an upload (catalog.ts), the source recorded.
    expect(row?.originKind).toBe('upload');
    expect(row?.originDetails).toMatchObject({
      derivedFrom: created.wide,
      reshape: { direction: 'wide_to_long', idColumns: IDS, valueName: 'gdp_pc', timeName: 'year' },
    });

    const rows = datasetRowsReplySchema.parse(
      (await api.get(`${BASE}/datasets/${created.long}/rows?limit=2&offset=26`)).body,
    ).data;
    expect(rows.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'Country Name:VARCHAR',
      'Country Code:VARCHAR',
      'Indicator Name:VARCHAR',
      'Indicator Code:VARCHAR',
      'year:INTEGER',
      'gdp_pc:DOUBLE',
    ]);
    expect(rows.rows[0]).toEqual([
      'Aruba',
      'ABW',
      'GDP per capita (current US$)',
      'NY.GDP.PCAP.CD',
      1986,
      6283.00144344602,
    ]);

    const wide = await api.post(`${BASE}/datasets/${created.long}/reshape`, {
      name: 'WDI wide again',
      spec: {
        direction: 'long_to_wide',
        idColumns: ['Country Code'],
        timeColumn: 'year',
        valueColumn: 'gdp_pc',
        prefix: 'gdp_',
      },
    });
    expect(wide.status).toBe(201);
    const w = derivedDatasetReplySchema.parse(wide.body).data;
    expect(w.dataset.recordCount).toBe(266);
    const back = datasetRowsReplySchema.parse(
      (await api.get(`${BASE}/datasets/${w.dataset.id}/rows?limit=1`)).body,
    ).data;
    expect(back.columns.map((c) => c.name).slice(0, 3)).toEqual([
      'Country Code',
      'gdp_1960',
      'gdp_1961',
    ]);
    expect(back.columns).toHaveLength(63);
  });

  it('refuses bad requests in the error envelope: 400, 404 and 422', async () => {
    const api = client(t.app, token);
    const url = `${BASE}/datasets/${created.wide}/reshape`;
    const refused = async (body: unknown, status: number, error: string | RegExp) => {
      const res = await api.post(url, body);
      expect(res.status).toBe(status);
      const reply = errorReplySchema.parse(res.body);
      expect(reply.success).toBe(false);
      if (typeof error === 'string') expect(reply.error).toBe(error);
      else expect(reply.error).toMatch(error);
    };
    await refused(
      { name: 'x', spec: { direction: 'wide_to_long', idColumns: ['Country'] } },
      400,
      /^The dataset has no column "Country" \(it has: Country Name, Country Code/,
    );
    await refused(
      {
        name: 'x',
        spec: { direction: 'wide_to_long', idColumns: IDS, valueColumns: [] },
      },
      400,
      'Choose at least one value column to turn into rows.',
    );
    await refused(
      { name: 'x', spec: { direction: 'sideways', idColumns: IDS } },
      400,
      /direction must be wide_to_long or long_to_wide/,
    );
    await refused({ spec: { direction: 'wide_to_long', idColumns: IDS } }, 400, /name is required/);
    await refused(
      {
        name: 'x',
        spec: {
          direction: 'long_to_wide',
          idColumns: ['Indicator Code'],
          timeColumn: 'Indicator Name',
          valueColumn: '1990',
        },
      },
      400,
      'Indicator Code = NY.GDP.PCAP.CD, Indicator Name = GDP per capita (current US$) appears in 266 rows: each combination of the id columns and Indicator Name must appear once. Add the columns that tell those rows apart to the id columns, or aggregate first.',
    );

    // No value columns named by a year.
    const plain = await upload('Plain', 'plain.csv', 'id,gdp\na,1\n');
    const noYears = await api.post(`${BASE}/datasets/${plain}/reshape`, {
      name: 'x',
      spec: { direction: 'wide_to_long', idColumns: ['id'] },
    });
    expect(noYears.status).toBe(400);
    expect(errorReplySchema.parse(noYears.body).error).toMatch(
      /none of the other columns is named by a year/,
    );

    // Past the column limit: 1,001 periods.
    const many = await upload(
      'Many periods',
      'many.csv',
      `id,t,v\n${Array.from({ length: 1001 }, (_, i) => `a,${i},1`).join('\n')}\n`,
    );
    const tooWide = await api.post(`${BASE}/datasets/${many}/reshape`, {
      name: 'x',
      spec: { direction: 'long_to_wide', idColumns: ['id'], timeColumn: 't', valueColumn: 'v' },
    });
    expect(tooWide.status).toBe(422);
    expect(errorReplySchema.parse(tooWide.body).error).toBe(
      't has more than 1,000 different values, so the wide dataset would have more than 1,000 new columns. Choose a time column with fewer values.',
    );

    // Another user's dataset is not there for them; nor is an id that is not one.
    const other = client(t.app, (await createUser(t.app)).accessToken);
    const hidden = await other.post(url, {
      name: 'x',
      spec: { direction: 'wide_to_long', idColumns: IDS },
    });
    expect(hidden.status).toBe(404);
    const badId = await api.post(`${BASE}/datasets/not-an-id/reshape`, {
      name: 'x',
      spec: { direction: 'wide_to_long', idColumns: IDS },
    });
    expect(badId.status).toBe(400);
  });
});

describe('charting a panel', () => {
  it('draws one line per country, years as years, and says how many are shown', async () => {
    const api = client(t.app, token);
    const res = await api.post(`${BASE}/datasets/${created.long}/chart`, {
      type: 'line',
      x: 'year',
      y: ['gdp_pc'],
      seriesBy: 'Country Name',
      entities: ['Japan', 'Brazil', 'Kenya'],
    });
    expect(res.status).toBe(200);
    const chart = datasetChartReplySchema.parse(res.body).data.chart;
    if (chart.kind !== 'line') throw new Error(`a ${chart.kind} chart`);
    expect(chart.xKind).toBe('year');
    expect(chart.x[0]).toBe(1960);
    expect(chart.x.at(-1)).toBe(2021);
    expect(chart.series.map((s) => s.name)).toEqual(['Japan', 'Brazil', 'Kenya']);
    expect(chart.seriesBy).toEqual({ column: 'Country Name', total: 266 });
    expect(chart.description).toBe(
      'mean of gdp_pc per value of year for each Country Name: showing 3 of 266 (those chosen).',
    );

    const top = datasetChartReplySchema.parse(
      (
        await api.post(`${BASE}/datasets/${created.long}/chart`, {
          type: 'line',
          x: 'year',
          y: ['gdp_pc'],
          seriesBy: 'Country Code',
        })
      ).body,
    ).data.chart;
    expect(top.kind === 'line' && top.series).toHaveLength(12);
    expect(top.description).toContain('showing 12 of 266 (those with the most values)');

    const unknown = await api.post(`${BASE}/datasets/${created.long}/chart`, {
      type: 'line',
      x: 'year',
      y: ['gdp_pc'],
      seriesBy: 'Country Name',
      entities: ['Atlantis'],
    });
    expect(unknown.status).toBe(400);
    expect(errorReplySchema.parse(unknown.body).error).toBe(
      'Country Name has no value "Atlantis".',
    );
  });
});
