import { describe, expect, it } from 'vitest';
import {
  activeStepOf,
  catalogDatasetsPath,
  dataFormOf,
  dataEndpoints,
  downloadPayload,
  readCheckpoint,
  readResults,
} from './dataSession';
import { makeSession, SESSION_ID } from '../shared/testing/fakeRuntime';

describe('the Data screen session rules', () => {
  it('starts an API source with fetch-dataset and a URL with analyze', () => {
    expect(
      dataEndpoints.start!({
        kind: 'api',
        source: 'fred',
        datasetId: 'GDP',
        analysisType: 'quality',
      }),
    ).toEqual({
      path: '/api/agents/data-team/fetch-dataset',
      body: { source: 'fred', datasetId: 'GDP', analysisType: 'quality' },
    });
    expect(
      dataEndpoints.start!({ kind: 'url', url: 'https://x.org/a.csv', analysisType: 'profile' }),
    ).toEqual({
      path: '/api/agents/data-team/analyze',
      body: {
        dataSource: 'url',
        analysisType: 'profile',
        config: { datasetId: 'https://x.org/a.csv' },
      },
    });
    // A catalog dataset by its id; the missing-value tokens only when chosen.
    expect(
      dataEndpoints.start!({ kind: 'catalog', datasetId: 'd-1', analysisType: 'descriptive' }),
    ).toEqual({
      path: '/api/agents/data-team/analyze',
      body: { dataSource: 'catalog', analysisType: 'descriptive', config: { datasetId: 'd-1' } },
    });
    expect(
      dataEndpoints.start!({
        kind: 'url',
        url: 'https://x.org/a.csv',
        analysisType: 'profile',
        missingTokens: ['NA', ''],
      }),
    ).toMatchObject({ body: { config: { missingTokens: ['NA', ''] } } });
    expect(
      dataEndpoints.start!({
        kind: 'api',
        source: 'fred',
        datasetId: 'GDP',
        analysisType: 'quality',
        missingTokens: ['.'],
      }),
    ).toMatchObject({ body: { missingTokens: ['.'] } });
    expect(catalogDatasetsPath(undefined)).toBe('/api/agents/data-team/catalog-datasets');
    expect(catalogDatasetsPath('p 1')).toBe(
      '/api/agents/data-team/catalog-datasets?projectId=p%201',
    );
    expect(dataEndpoints.feedback!('s1', 'Approved', 1)).toEqual({
      path: '/api/agents/data-team/feedback',
      body: { sessionId: 's1', feedback: 'Approved' },
    });
    expect(dataEndpoints.status!('a b')).toBe('/api/agents/data-team/status/a%20b');
  });

  it('steps: Data Source first, the running phase, then Completed marks every step done', () => {
    expect(activeStepOf('idle', 0)).toBe(0);
    expect(activeStepOf('processing', 1)).toBe(0);
    expect(activeStepOf('processing', 2)).toBe(1);
    expect(activeStepOf('waiting_for_input', 3)).toBe(2);
    expect(activeStepOf('processing', 4)).toBe(3);
    expect(activeStepOf('completed', 4)).toBe(5);
    expect(activeStepOf('error', 2)).toBe(1);
  });

  it('reads only results that match their schemas, and downloads computed results only', () => {
    const loading = {
      datasetId: 'd1',
      name: 'mroz',
      rows: 3,
      columns: [{ name: 'a', type: 'BIGINT' }],
      dropped: [],
    };
    const results = readResults({ 2: loading, 4: { not: 'an analysis' } });
    expect(results.loading).toEqual(loading);
    expect(results.analysis).toBeUndefined();
    expect(readCheckpoint({ rows: 'x' })).toBeUndefined();
    expect(downloadPayload(results, 's1')).toMatchObject({
      sessionId: 's1',
      dataset: loading,
      analysis: null,
      interpretation: null,
    });
  });
});

describe('the Data screen reads replies by their schemas', () => {
  const session = makeSession({
    teamId: 'data',
    status: 'waiting_for_input',
    phase: 3,
    checkpoint: 1,
    results: [
      {
        phase: 2,
        key: 'loading',
        name: 'Data Loading',
        result: { datasetId: 'd1', name: 'mroz', rows: 3, columns: [], dropped: [] },
        completedAt: '2025-01-01T00:00:01.000Z',
      },
    ],
  });

  it('reads the start and feedback replies, and refuses other shapes', () => {
    const reply = { success: true, sessionId: SESSION_ID, status: 'processing', phase: 0, session };
    expect(dataEndpoints.readStart!(reply)).toMatchObject({
      sessionId: SESSION_ID,
      snapshot: { status: 'waiting_for_input', phase: 3, checkpoint: 1 },
    });
    expect(dataEndpoints.readFeedback!(reply)).toMatchObject({ status: 'waiting_for_input' });
    expect(dataEndpoints.readStart!({ sessionId: SESSION_ID })).toBeUndefined();
    expect(dataEndpoints.readFeedback!({ success: true })).toBeUndefined();
  });

  it('reads a status reply with its whole log, and refuses one that breaks the schema', () => {
    const status = {
      success: true,
      sessionId: SESSION_ID,
      status: 'waiting_for_input',
      phase: 2,
      checkpoint: 1,
      checkpointData: null,
      logs: ['Loaded 3 rows'],
      error: null,
      analysisType: 'profile',
      dataSource: 'url',
      source: null,
      dataset: null,
      profile: null,
      cleaning: null,
      results: null,
      session,
    };
    const snapshot = dataEndpoints.readStatus!(status);
    expect(snapshot).toMatchObject({ status: 'waiting_for_input', logs: ['Loaded 3 rows'] });
    expect(readResults(snapshot!.results!).loading?.name).toBe('mroz');
    expect(dataEndpoints.readStatus!({ ...status, phase: 9 })).toBeUndefined();
    expect(
      dataEndpoints.readStatus!({ ...status, session: { sessionId: SESSION_ID } }),
    ).toBeUndefined();
  });
});

describe('the form of a reopened Data session', () => {
  const form = (input: Record<string, unknown>) => dataFormOf({ input, configuration: {} });

  it('holds the source, dataset and analysis the session was started with', () => {
    expect(
      form({ dataSource: 'api', analysisType: 'descriptive', apiSource: 'fred', datasetId: 'GDP' }),
    ).toEqual({
      dataSource: 'api',
      analysisType: 'descriptive',
      apiSource: 'fred',
      datasetId: 'GDP',
    });
    expect(
      form({ dataSource: 'url', analysisType: 'profile', datasetId: 'https://x.test/a.csv' }),
    ).toEqual({ dataSource: 'url', analysisType: 'profile', url: 'https://x.test/a.csv' });
    const catalogId = '0b5e5a1e-9a43-4d1a-8f36-5d0f4d7b2c11';
    expect(form({ dataSource: 'catalog', analysisType: 'quality', datasetId: catalogId })).toEqual({
      dataSource: 'catalog',
      analysisType: 'quality',
      catalogDatasetId: catalogId,
    });
  });

  it("names an upload's file and keeps its missing-value tokens", () => {
    expect(
      form({
        dataSource: 'upload',
        analysisType: 'profile',
        uploadId: '0b5e5a1e-9a43-4d1a-8f36-5d0f4d7b2c11',
        fileName: 'wages.csv',
        missingTokens: ['..'],
      }),
    ).toEqual({
      dataSource: 'upload',
      analysisType: 'profile',
      fileName: 'wages.csv',
      missingTokens: ['..'],
    });
    expect(form({ researchQuestion: 'Why?' })).toBeUndefined();
  });
});
