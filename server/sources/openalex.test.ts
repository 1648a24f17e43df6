import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../../test/fixtures/literature-sources/server';
import { createHttpClient } from '../platform/http';
import { abstractFromInvertedIndex, createOpenAlex, workFromOpenAlex } from './openalex';
import { SourceError } from './work';

let fixtures: LiteratureFixtures;
const waits: number[] = [];
const http = createHttpClient({
  allowPrivateHosts: ['127.0.0.1'],
  timeoutMs: 2000,
  retries: 2,
  sleep: (ms) => {
    waits.push(ms);
    return Promise.resolve();
  },
});

beforeAll(async () => {
  fixtures = await startLiteratureFixtures();
});
afterAll(async () => {
  await fixtures.close();
  await http.close();
});
beforeEach(() => {
  fixtures.reset();
  waits.length = 0;
});

const client = (extra: { mailto?: string; perPage?: number; timeoutMs?: number } = {}) =>
  createOpenAlex({ http, baseUrl: fixtures.urls.openalex, ...extra });

describe('abstract reconstruction', () => {
  it('puts each word at its positions', () => {
    expect(
      abstractFromInvertedIndex({
        Trade: [0],
        raises: [1],
        welfare: [2, 5],
        and: [3],
        lowers: [4],
      }),
    ).toBe('Trade raises welfare and lowers welfare');
    expect(abstractFromInvertedIndex(null)).toBeUndefined();
    // Malformed entries are skipped, not trusted.
    expect(
      abstractFromInvertedIndex({ odd: 'x', good: [1], neg: [-1], frac: [0.5], first: [0] }),
    ).toBe('first good');
    expect(abstractFromInvertedIndex(['not', 'an', 'index'])).toBeUndefined();
    expect(abstractFromInvertedIndex({})).toBeUndefined();
  });
});

describe('OpenAlex works search', () => {
  it('maps real works: DOI, authors, year, venue, citations, abstract, trusted link', async () => {
    const result = await client().search({ query: 'governance', limit: 20 });
    expect(result.source).toBe('openalex');
    expect(result.works).toHaveLength(20);
    const first = result.works[0]!;
    expect(first.title).toBe(
      'Physicochemical and Nutritional Properties of Different Maize Races on Toasted Tortillas',
    );
    expect(first.doi).toBe('10.1094/cchem-05-16-0138-r');
    expect(first.year).toBe(2017);
    expect(first.published).toBe('2017-03-08');
    expect(first.venue).toBe('Cereal Chemistry');
    expect(first.citations).toBe(8);
    expect(first.relevance).toBeCloseTo(5.368266);
    expect(first.url).toBe('https://doi.org/10.1094/cchem-05-16-0138-r');
    expect(first.authors[0]?.name).toBe('Rosa María González‐Amaro');
    expect(first.abstract?.startsWith('Biodiversity contributes to nutrient production')).toBe(
      true,
    );
    expect(first.sourceId).toBe('W2557651091');
    expect(result.works.map((w) => w.rank)).toEqual([...Array(20).keys()]);
  });

  it('pages with the cursor until the limit, and stops at the last page', async () => {
    const oa = client({ perPage: 25 });
    const result = await oa.search({ query: 'x', limit: 55 });
    expect(result.works).toHaveLength(55);
    expect(result.requests).toBe(3);
    const cursors = fixtures.requests.map((r) => r.query.cursor);
    expect(cursors[0]).toBe('*');
    expect(new Set(cursors).size).toBe(3);
    expect(fixtures.requests.map((r) => r.query.per_page)).toEqual(['25', '25', '5']);

    fixtures.reset();
    // The pool holds 61 works: asking for more ends when next_cursor is null.
    const all = await oa.search({ query: 'x', limit: 500 });
    expect(all.works).toHaveLength(61);
    expect(all.total).toBe(61);
    expect(all.requests).toBe(3);
  });

  it('sends mailto and the year filter', async () => {
    await client({ mailto: 'team@example.org' }).search({
      query: 'payments for ecosystem services',
      limit: 5,
      fromYear: 2005,
      toYear: 2008,
    });
    const q = fixtures.requests[0]!.query;
    expect(q.mailto).toBe('team@example.org');
    expect(q.search).toBe('payments for ecosystem services');
    expect(q.filter).toBe('from_publication_date:2005-01-01,to_publication_date:2008-12-31');
  });

  it('finds one work by DOI', async () => {
    const work = await client().workByDoi('https://doi.org/10.1596/1813-9450-3630');
    expect(work?.title).toBe('Governance Matters IV : Governance Indicators For 1996-2004');
    expect(await client().workByDoi('10.9999/nothing')).toBeUndefined();
  });
});

describe('OpenAlex publication counts by year', () => {
  it('reads group_by=publication_year and fills empty years inside the bounds', async () => {
    fixtures.setYearCounts({ 2018: 120, 2019: 150, 2021: 240, 1990: 5 });
    const counts = await client().countsByYear({
      search: 'minimum wage',
      fromYear: 2018,
      toYear: 2022,
    });
    expect(counts).toEqual([
      { year: 2018, count: 120 },
      { year: 2019, count: 150 },
      { year: 2020, count: 0 },
      { year: 2021, count: 240 },
      { year: 2022, count: 0 },
    ]);
    expect(fixtures.requests[0]?.query.group_by).toBe('publication_year');
  });

  it('groups by any field', async () => {
    const groups = await client().groupBy('type', { search: 'x' });
    expect(groups[0]).toEqual({
      key: 'https://openalex.org/types/article',
      label: 'article',
      count: 202964,
    });
  });
});

describe('OpenAlex failures', () => {
  it('retries a 429 as long as Retry-After says', async () => {
    fixtures.script('openalex', [{ kind: 'status', status: 429, headers: { 'retry-after': '3' } }]);
    const result = await client().search({ query: 'x', limit: 5 });
    expect(result.works).toHaveLength(5);
    expect(waits).toEqual([3000]);
    expect(fixtures.requests).toHaveLength(2);
  });

  it('names the source and the status when retries run out', async () => {
    fixtures.setDown('openalex', { kind: 'status', status: 503 });
    const error = await client()
      .search({ query: 'x', limit: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).message).toMatch(
      /^OpenAlex: HTTP 503 from http:\/\/127\.0\.0\.1/,
    );
    expect(fixtures.requests).toHaveLength(3);
  });

  it('reports a malformed reply', async () => {
    fixtures.script('openalex', [{ kind: 'malformed', body: '{"meta": {}, "results": "nope"}' }]);
    const error = (await client()
      .search({ query: 'x', limit: 5 })
      .catch((e: unknown) => e)) as SourceError;
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/^OpenAlex: unexpected reply/);
    fixtures.script('openalex', [{ kind: 'malformed', body: '<html>' }]);
    const notJson = (await client()
      .search({ query: 'x', limit: 5 })
      .catch((e: unknown) => e)) as SourceError;
    expect(notJson.kind).toBe('malformed');
  });

  it('skips works without a title instead of failing the page', () => {
    expect(
      workFromOpenAlex({ id: 'https://openalex.org/W1', display_name: null }, 0),
    ).toBeUndefined();
    expect(workFromOpenAlex({ nonsense: true }, 0)).toBeUndefined();
  });

  it('times out a source that does not answer', async () => {
    fixtures.setDown('openalex', { kind: 'hang' });
    const error = (await client({ timeoutMs: 150 })
      .search({ query: 'x', limit: 5 })
      .catch((e: unknown) => e)) as SourceError;
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/^OpenAlex: No complete reply/);
  });
});
