import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelVariablesReply } from '../../../../common/teams/model';
import { createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { sessionClient, waitingAt } from '../../../../test/teams/helpers';
import { modelStatus } from '../../../../test/teams/model-status';

/**
 * The Model team with target moments from a catalog dataset: the researcher names a dataset
 * (uploaded here through the Data Explorer's API) and maps its columns to model variables; the
 * calibration's targets are the moments computed from the data, equal to the values statsmodels
 * and numpy give (server/engines/models/testdata); every wrong choice is refused at the start
 * with a 4xx naming what to fix; a dataset deleted after the start leaves the documented facts.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

const BASE = '/api/agents/model-team';
const samples = path.join(import.meta.dirname, '../../../../test/fixtures/data-sources/samples');
const reference = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, '../../../engines/models/testdata/data_moments_reference.json'),
    'utf8',
  ),
) as {
  columns: Record<string, { hp1600_std: number; hp1600_acf1: number }>;
  cross: Record<string, { hp1600_relstd_gdp: number; hp1600_corr_gdp: number }>;
};

/** Adds a dataset to the catalog through the Data Explorer's upload route. */
async function uploadDataset(
  token: string,
  name: string,
  fileName: string,
  content: string | Buffer,
) {
  const boundary = '----model-team-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/agents/data-team/datasets/upload',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: { dataset: { id: string } } }).data.dataset.id;
}

const status = (token: string, id: string) => modelStatus(t.app, token, id);

const develop = (targetData: unknown, modelType = 'RBC') => ({
  modelType,
  focus: 'Business cycles in the US, 1959-2009',
  periods: 240,
  targetData,
});

/** 30 quarters with a text column, a negative column and period labels (1990Q1...). */
const smallCsv = (rows: number) =>
  [
    'period,gdp,note,gap',
    ...Array.from({ length: rows }, (_, i) => {
      const year = 1990 + Math.floor(i / 4);
      return `${year}Q${(i % 4) + 1},${(100 * Math.exp(0.01 * i + 0.02 * Math.sin(i))).toFixed(4)},obs ${i},${(Math.sin(i) - 0.2).toFixed(4)}`;
    }),
  ].join('\n');

describe('Model team with target moments from a catalog dataset', () => {
  let owner: { accessToken: string };
  let macroId: string;
  let smallId: string;
  let shortId: string;

  beforeAll(async () => {
    owner = await createUser(t.app);
    macroId = await uploadDataset(
      owner.accessToken,
      'US macro quarterly',
      'us_macro.csv',
      readFileSync(path.join(samples, 'datasets/us_macro_quarterly_1959q1_2009q3.csv')),
    );
    smallId = await uploadDataset(owner.accessToken, 'Small quarterly', 'small.csv', smallCsv(30));
    shortId = await uploadDataset(owner.accessToken, 'Short quarterly', 'short.csv', smallCsv(12));
  }, 60_000);

  it('lists the variables of a model type for the mapping, and refuses an unknown type', async () => {
    const api = client(t.app, owner.accessToken);
    const res = await api.get(`${BASE}/variables/RBC`);
    expect(res.status).toBe(200);
    const names = (res.body as ModelVariablesReply).variables.map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['y', 'c', 'inv', 'n']));
    const bad = await api.get(`${BASE}/variables/Keynesian`);
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/type must be one of: DSGE, RBC/);
  });

  it('refuses a wrong dataset, column, variable or data at the start, naming it', async () => {
    const api = client(t.app, owner.accessToken);
    const other = await createUser(t.app);
    const cases: { body: unknown; token?: string; status: number; error: RegExp }[] = [
      {
        body: develop({
          datasetId: '00000000-0000-4000-8000-000000000000',
          columns: [{ column: 'realgdp', variable: 'y' }],
        }),
        status: 404,
        error:
          /Target dataset 00000000-0000-4000-8000-000000000000 was not found in the catalog, or you cannot see it/,
      },
      {
        // another researcher's dataset is as good as missing
        body: develop({ datasetId: macroId, columns: [{ column: 'realgdp', variable: 'y' }] }),
        token: other.accessToken,
        status: 404,
        error: /was not found in the catalog, or you cannot see it/,
      },
      {
        body: develop({ datasetId: macroId, columns: [{ column: 'real_gdp', variable: 'y' }] }),
        status: 400,
        error:
          /The dataset "US macro quarterly" has no column 'real_gdp'; its numeric columns are: year, quarter, realgdp/,
      },
      {
        body: develop({ datasetId: macroId, columns: [{ column: 'realgdp', variable: 'output' }] }),
        status: 400,
        error:
          /The RBC model has no variable 'output' \(mapped from column 'realgdp'\); its variables are: y, c, inv/,
      },
      {
        body: develop({ datasetId: smallId, columns: [{ column: 'note', variable: 'y' }] }),
        status: 400,
        error: /Column 'note' of "Small quarterly" is not numeric/,
      },
      {
        body: develop({
          datasetId: smallId,
          columns: [{ column: 'gap', variable: 'y', transform: 'hp' }],
        }),
        status: 400,
        error: /Column 'gap' has a value <= 0 .*use the transform 'level'/,
      },
      {
        body: develop({ datasetId: shortId, columns: [{ column: 'gdp', variable: 'y' }] }),
        status: 400,
        error: /have 12 complete observations; target moments need at least 20/,
      },
      {
        body: develop({
          datasetId: macroId,
          columns: [{ column: 'realgdp', variable: 'y' }],
          frequency: 'annual',
        }),
        status: 400,
        error: /targetData.frequency is annual, but the dataset's time index is quarterly/,
      },
      {
        body: develop({
          datasetId: macroId,
          columns: [{ column: 'realgdp', variable: 'y', transform: 'cubic' }],
        }),
        status: 400,
        error: /transform must be one of: hp, logdiff, level/,
      },
      {
        body: develop({
          datasetId: macroId,
          columns: [
            { column: 'realgdp', variable: 'y' },
            { column: 'realdpi', variable: 'y' },
          ],
        }),
        status: 400,
        error: /The model variable 'y' is mapped to more than one column/,
      },
      {
        body: develop({ datasetId: 'not-an-id', columns: [{ column: 'realgdp', variable: 'y' }] }),
        status: 400,
        error: /targetData.datasetId must be a dataset id/,
      },
    ];
    for (const c of cases) {
      const res = await client(t.app, c.token ?? owner.accessToken).post(`${BASE}/develop`, c.body);
      const body = res.body as { success: boolean; error: string };
      expect(res.status, JSON.stringify(body)).toBe(c.status);
      expect(body.success).toBe(false);
      expect(body.error).toMatch(c.error);
    }
    // nothing was started by the refused requests
    const sessions = await api.get('/api/agents/sessions?limit=50');
    expect(sessions.status).toBe(200);
    expect((sessions.body as { total: number }).total).toBe(0);
  });

  it('calibrates the RBC model to the moments of the dataset, equal to statsmodels and numpy', async () => {
    const api = client(t.app, owner.accessToken);
    const sessions = sessionClient(t.app, owner.accessToken);
    const start = await api.post(
      `${BASE}/develop`,
      develop({
        datasetId: macroId,
        columns: [
          { column: 'realgdp', variable: 'y', transform: 'hp' },
          { column: 'realcons', variable: 'c', transform: 'hp' },
          { column: 'realinv', variable: 'inv' },
        ],
      }),
    );
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    const id = (start.body as { sessionId: string }).sessionId;
    for (const checkpoint of [1, 2]) {
      await sessions.waitFor(id, waitingAt(checkpoint), 30_000);
      await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint });
    }
    await sessions.waitFor(id, waitingAt(3), 90_000);
    const s = await status(owner.accessToken, id);
    const cal = s.calibrationResults!;
    expect(cal.targetData).toMatchObject({
      datasetId: macroId,
      datasetName: 'US macro quarterly',
      frequency: 'quarterly',
      observations: 203,
      start: '1959Q1',
      end: '2009Q3',
      problem: null,
      columns: [
        { column: 'realgdp', variable: 'y', transform: 'hp', lambda: 1600 },
        { column: 'realcons', variable: 'c', transform: 'hp', lambda: 1600 },
        { column: 'realinv', variable: 'inv', transform: 'hp', lambda: 1600 },
      ],
    });
    expect(cal.targetsSource).toMatch(
      /Computed from the dataset "US macro quarterly" \(203 quarterly observations, 1959Q1-2009Q3\) for y, c, inv; documented stylised facts for the other variables \(1\)/,
    );

    const target = (statistic: string, variable: string) => {
      const found = cal.run.targets.find(
        (x) => x.statistic === statistic && x.variable === variable,
      );
      expect(found, `${statistic}(${variable})`).toBeDefined();
      return found!;
    };
    const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-8);
    close(target('std', 'y').value, reference.columns.realgdp!.hp1600_std);
    close(target('autocorr', 'y').value, reference.columns.realgdp!.hp1600_acf1);
    close(target('relstd', 'c').value, reference.cross.realcons!.hp1600_relstd_gdp);
    close(target('corr', 'c').value, reference.cross.realcons!.hp1600_corr_gdp);
    close(target('relstd', 'inv').value, reference.cross.realinv!.hp1600_relstd_gdp);
    close(target('corr', 'inv').value, reference.cross.realinv!.hp1600_corr_gdp);
    close(target('autocorr', 'inv').value, reference.columns.realinv!.hp1600_acf1);
    expect(target('std', 'y')).toMatchObject({ filter: 'hp', lambda: 1600 });
    expect(target('std', 'y').source).toMatch(
      /^Dataset "US macro quarterly": realgdp \(log, HP cycle, λ 1600\), 1959Q1-2009Q3, 203 quarterly observations$/,
    );
    // hours are not in the data: King and Rebelo's documented fact stays
    expect(target('relstd', 'n').source).toMatch(/King and Rebelo/);
    expect(cal.run.targets.every((x) => x.model !== null)).toBe(true);

    // moment matching ran against the data moments
    expect(cal.estimation).not.toBeNull();
    close(
      cal.estimation!.targets.find((x) => x.statistic === 'std' && x.variable === 'y')!.value,
      reference.columns.realgdp!.hp1600_std,
    );
    expect(cal.estimation!.objectiveAfter).toBeLessThan(cal.estimation!.objectiveBefore);
    expect(s.logs.join('\n')).toMatch(
      /Computed target moments from dataset "US macro quarterly" \(203 quarterly observations, 1959Q1-2009Q3\): std\(y\) = 0\.0154, autocorr\(y\) = 0\.8547/,
    );

    const md = await api.get(`${BASE}/export/${id}?format=markdown`);
    expect((md.body as { content: string }).content).toContain(
      '| realcons | `c` | log, HP cycle (lambda 1600) |',
    );
  }, 180_000);

  it('falls back to the documented facts, saying why, when the dataset is deleted after the start', async () => {
    const api = client(t.app, owner.accessToken);
    const sessions = sessionClient(t.app, owner.accessToken);
    const doomed = await uploadDataset(owner.accessToken, 'Doomed', 'doomed.csv', smallCsv(30));
    const start = await api.post(
      `${BASE}/develop`,
      develop({ datasetId: doomed, columns: [{ column: 'gdp', variable: 'y' }] }, 'NK'),
    );
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    const id = (start.body as { sessionId: string }).sessionId;
    expect((await api.del(`/api/datasets/${doomed}`)).status).toBe(200);
    for (const checkpoint of [1, 2]) {
      await sessions.waitFor(id, waitingAt(checkpoint), 30_000);
      await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint });
    }
    await sessions.waitFor(id, waitingAt(3), 60_000);
    const s = await status(owner.accessToken, id);
    const cal = s.calibrationResults!;
    expect(cal.targetData?.problem).toMatch(
      /The target dataset could not be used: Target dataset .* was not found in the catalog/,
    );
    expect(cal.targetsSource).toMatch(/^None: the library documents no target moments/);
    expect(cal.run.targets).toEqual([]);
    expect(s.logs.join('\n')).toMatch(/The documented stylised facts are used instead/);
  }, 120_000);
});
