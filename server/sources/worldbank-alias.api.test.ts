import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReplySchema } from '../../common/api';
import {
  analyzeRequestSchema,
  derivedDatasetReplySchema,
  explorerFetchRequestSchema,
  fetchDatasetRequestSchema,
} from '../../common/teams/data';
import { teamStartReplySchema } from '../../common/teams/shared';
import { createTestApp, createUser, type TestApp } from '../../test/app';
import { client, type Client } from '../../test/client';
import { startDataFixtures, type DataFixtures } from '../../test/fixtures/data-sources/server';

/**
 * The agent-teams spec names the World Bank API source `worldbank`; the platform's own value is
 * `world_bank`. Both are accepted wherever a request names an API source, and read as
 * `world_bank`; a value that is neither is still a 400 naming the accepted ones.
 */

const BASE = '/api/agents/data-team';
let fixtures: DataFixtures;
let t: TestApp;
let api: Client;

beforeAll(async () => {
  fixtures = await startDataFixtures();
  t = await createTestApp({
    WORLDBANK_BASE_URL: fixtures.urls.worldbank,
    PROFILING_THREADS: '1',
  });
  api = client(t.app, (await createUser(t.app)).accessToken);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fixtures?.close();
});

describe('the worldbank source value', () => {
  it('is read as world_bank by every request schema that names an API source', () => {
    expect(
      fetchDatasetRequestSchema.parse({ source: 'worldbank', datasetId: 'NY.GDP.MKTP.CD' }).source,
    ).toBe('world_bank');
    expect(
      explorerFetchRequestSchema.parse({ source: 'worldbank', datasetId: 'NY.GDP.MKTP.CD' }).source,
    ).toBe('world_bank');
    expect(
      analyzeRequestSchema.parse({
        dataSource: 'api',
        config: { datasetSource: 'worldbank', datasetId: 'NY.GDP.MKTP.CD' },
      }).config.datasetSource,
    ).toBe('world_bank');
    expect(
      fetchDatasetRequestSchema.parse({ source: 'world_bank', datasetId: 'NY.GDP.MKTP.CD' }).source,
    ).toBe('world_bank');
  });

  it('fetches into the Data Explorer as a World Bank dataset', async () => {
    const res = await api.post(`${BASE}/datasets/fetch`, {
      source: 'worldbank',
      datasetId: 'JPN/NY.GDP.MKTP.CD',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { dataset } = derivedDatasetReplySchema.parse(res.body).data;
    expect(dataset.source).toBe('world_bank');
    expect(res.body.message).toContain('from World Bank');
  });

  it('starts a Data team session from /fetch-dataset and /analyze', async () => {
    const fetched = await api.post(`${BASE}/fetch-dataset`, {
      source: 'worldbank',
      datasetId: 'JPN/NY.GDP.MKTP.CD',
    });
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(201);
    expect(teamStartReplySchema.parse(fetched.body).sessionId).toBeTruthy();
    const analyzed = await api.post(`${BASE}/analyze`, {
      dataSource: 'api',
      analysisType: 'profile',
      config: { datasetSource: 'worldbank', datasetId: 'JPN/NY.GDP.MKTP.CD' },
    });
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(201);
    // The World Bank's own id check applies to the alias as to world_bank.
    const bad = await api.post(`${BASE}/fetch-dataset`, {
      source: 'worldbank',
      datasetId: 'gdp per capita',
    });
    expect(bad.status).toBe(400);
    expect(errorReplySchema.parse(bad.body).error).toMatch(/is not a World Bank indicator id/);
  });

  it('still refuses other spellings with 400, naming the accepted values', async () => {
    for (const source of ['WorldBank', 'world-bank', 'wb']) {
      const res = await api.post(`${BASE}/datasets/fetch`, { source, datasetId: 'NY.GDP.MKTP.CD' });
      expect(res.status, source).toBe(400);
      expect(errorReplySchema.parse(res.body).error).toContain(
        'source must be one of: world_bank, fred, imf, kaggle (worldbank is read as world_bank)',
      );
    }
  });
});
