import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../../test/fixtures/literature-sources/server';
import { createHttpClient } from '../platform/http';
import { arxivQuery, createArxiv, parseArxivFeed } from './arxiv';
import { createCrossref } from './crossref';
import { createSemanticScholar } from './semantic-scholar';
import { SourceError } from './work';

/** Crossref, arXiv and Semantic Scholar against the fixture server (OpenAlex: openalex.test.ts). */

let fixtures: LiteratureFixtures;
const waits: number[] = [];
const http = createHttpClient({
  allowPrivateHosts: ['127.0.0.1'],
  timeoutMs: 2000,
  retries: 2,
  now: () => Date.parse('2030-01-01T00:00:00Z'),
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

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => {
      if (!(e instanceof SourceError)) throw e;
      return e;
    },
  );

describe('Crossref', () => {
  const crossref = () =>
    createCrossref({ http, baseUrl: fixtures.urls.crossref, mailto: 'team@example.org', rows: 8 });

  it('maps items: DOI, title, authors, issued date, venue, citations, JATS abstract as text', async () => {
    const result = await crossref().search({ query: 'ecology', limit: 8 });
    const first = result.works[0]!;
    expect(first).toMatchObject({
      source: 'crossref',
      doi: '10.1111/ele.14024',
      title: 'The forecast trap',
      year: 2022,
      published: '2022-05-30',
      venue: 'Ecology Letters',
      citations: 19,
      url: 'https://onlinelibrary.wiley.com/doi/10.1111/ele.14024',
    });
    expect(first.authors[0]).toEqual({
      name: 'Carl Boettiger',
      given: 'Carl',
      family: 'Boettiger',
    });
    expect(first.abstract).toMatch(/^Encouraged by decision makers/);
    expect(first.abstract).not.toMatch(/<jats:/);
    expect(fixtures.requests[0]?.query).toMatchObject({
      query: 'ecology',
      mailto: 'team@example.org',
    });
    expect(fixtures.requests[0]?.headers['user-agent']).toMatch(/mailto:team@example\.org/);
  });

  it('pages with rows and offset, and stops at the total', async () => {
    const result = await crossref().search({ query: 'ecology', limit: 100 });
    expect(result.works).toHaveLength(22);
    expect(result.total).toBe(22);
    expect(fixtures.requests.map((r) => r.query.offset)).toEqual(['0', '8', '16']);
  });

  it('sends the year filter', async () => {
    await crossref().search({ query: 'ecology', limit: 5, fromYear: 2015, toYear: 2020 });
    expect(fixtures.requests[0]?.query.filter).toBe('from-pub-date:2015,until-pub-date:2020');
  });

  it('reads one work by DOI and answers undefined for an unknown DOI', async () => {
    const work = await crossref().workByDoi('doi:10.1111/ELE.14024');
    expect(work?.title).toBe('The forecast trap');
    expect(await crossref().workByDoi('10.9999/unknown')).toBeUndefined();
  });

  it('retries a 429 whose Retry-After is an HTTP date', async () => {
    fixtures.script('crossref', [
      { kind: 'status', status: 429, headers: { 'retry-after': 'Tue, 01 Jan 2030 00:00:04 GMT' } },
    ]);
    const result = await crossref().search({ query: 'ecology', limit: 2 });
    expect(result.works).toHaveLength(2);
    expect(waits).toEqual([4000]);
  });

  it('reports malformed replies and timeouts with the source name', async () => {
    fixtures.script('crossref', [{ kind: 'malformed', body: '{"status":"ok","message":{}}' }]);
    const malformed = await failureOf(crossref().search({ query: 'x', limit: 2 }));
    expect(malformed.message).toBe('Crossref: unexpected reply (works list)');
    fixtures.setDown('crossref', { kind: 'hang' });
    const slow = createCrossref({ http, baseUrl: fixtures.urls.crossref, timeoutMs: 100 });
    const timeout = await failureOf(slow.search({ query: 'x', limit: 2 }));
    expect(timeout.kind).toBe('timeout');
    expect(timeout.message).toMatch(/^Crossref: /);
  });
});

describe('arXiv', () => {
  const arxiv = (pageSize = 10) => createArxiv({ http, baseUrl: fixtures.urls.arxiv, pageSize });

  it('parses the current Atom layout', async () => {
    const result = await arxiv().search({ query: 'testing', limit: 3 });
    expect(result.works[0]).toMatchObject({
      source: 'arxiv',
      arxivId: '2202.12139',
      doi: '10.1109/icstw55395.2022.00035',
      title:
        'Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques',
      year: 2022,
      published: '2022-02-24',
      url: 'https://arxiv.org/abs/2202.12139v1',
      pdfUrl: 'https://arxiv.org/pdf/2202.12139v1',
    });
    expect(result.works[0]?.authors.map((a) => a.name)).toEqual([
      'Mohit Kumar Ahuja',
      'Arnaud Gotlieb',
      'Helge Spieker',
    ]);
    expect(result.works[0]?.keywords).toEqual(['cs.SE', 'cs.LG']);
  });

  it('parses the old layout (namespaces declared per element), whitespace folded', async () => {
    const { readFileSync } = await import('node:fs');
    const xml = readFileSync(
      new URL(
        '../../test/fixtures/literature-sources/samples/arxiv/query_search_au_del_maestro_2016.xml',
        import.meta.url,
      ),
      'utf8',
    );
    const feed = parseArxivFeed(xml);
    expect(feed.total).toBe(31);
    expect(feed.works).toHaveLength(10);
    expect(feed.works[0]?.title).toBe('A Luttinger Liquid Core Inside Helium-4 Filled Nanopores');
    expect(feed.works[0]?.abstract).toMatch(/^As helium-4 is cooled below 2\.17 K/);
    expect(feed.works[0]?.abstract).not.toMatch(/\n/);
    // Without an arxiv:doi the work gets arXiv's own DOI.
    expect(feed.works.every((w) => w.doi)).toBe(true);
  });

  it('pages with start and max_results over both feeds', async () => {
    const result = await arxiv(8).search({ query: 'testing', limit: 50 });
    expect(result.works).toHaveLength(20);
    expect(fixtures.requests.map((r) => r.query.start)).toEqual(['0', '8', '16']);
    expect(fixtures.requests[0]?.query.search_query).toBe('all:testing');
  });

  it('builds arXiv query syntax and a date range', async () => {
    expect(arxivQuery('minimum wage and employment')).toBe(
      'all:minimum AND all:wage AND all:employment',
    );
    await arxiv().search({ query: 'testing', limit: 5, fromYear: 2010, toYear: 2015 });
    expect(fixtures.requests[0]?.query.search_query).toBe(
      '(all:testing) AND submittedDate:[201001010000 TO 201512312359]',
    );
  });

  it('reports a reply that is not an Atom feed', async () => {
    fixtures.script('arxiv', [{ kind: 'malformed', body: '<html><body>oops</body></html>' }]);
    const e = await failureOf(arxiv().search({ query: 'x', limit: 5 }));
    expect(e.message).toBe('arXiv: reply is not an Atom feed');
    fixtures.script('arxiv', [{ kind: 'malformed', body: '<feed><entry><id>' }]);
    expect((await failureOf(arxiv().search({ query: 'x', limit: 5 }))).kind).toBe('malformed');
  });

  it('reports arXiv query errors (an error entry)', () => {
    const xml =
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#incorrect_id_format</id><title>Error</title><summary>incorrect id format</summary></entry></feed>';
    expect(parseArxivFeed(xml).errors).toEqual(['incorrect id format']);
  });
});

describe('Semantic Scholar', () => {
  const s2 = (apiKey?: string) =>
    createSemanticScholar({ http, baseUrl: fixtures.urls.semantic_scholar, pageSize: 40, apiKey });

  it('maps papers: DOI or arXiv DOI, authors, citations, venue, trusted url', async () => {
    const result = await s2().search({ query: 'turing', limit: 3 });
    const first = result.works[0]!;
    expect(first).toMatchObject({
      source: 'semantic_scholar',
      sourceId: '7cbc2a7843411a1768ab762930707af0a3c33a19',
      arxivId: '2201.11990',
      doi: '10.48550/arxiv.2201.11990',
      url: 'https://www.semanticscholar.org/paper/7cbc2a7843411a1768ab762930707af0a3c33a19',
    });
    expect(first.title).toMatch(/^Using DeepSpeed and Megatron/);
    expect(first.abstract).toMatch(/^Pretrained general-purpose language models/);
    expect(typeof first.citations).toBe('number');
    expect(fixtures.requests[0]?.query.fields).toContain('abstract');
  });

  it('pages with offset and next, and stops when next is absent', async () => {
    const result = await s2().search({ query: 'turing', limit: 1000 });
    expect(result.works.length).toBeGreaterThan(90);
    expect(fixtures.requests.map((r) => r.query.offset)).toEqual(['0', '40', '80']);
  });

  it('sends the key only when configured', async () => {
    await s2().search({ query: 'turing', limit: 1 });
    await s2('secret-key').search({ query: 'turing', limit: 1 });
    expect(fixtures.requests.map((r) => r.headers['x-api-key'])).toEqual([undefined, 'secret-key']);
  });

  it('retries the shared pool 429 and gives up with the source named', async () => {
    fixtures.script('semantic_scholar', [
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
    ]);
    expect((await s2().search({ query: 'turing', limit: 2 })).works).toHaveLength(2);
    expect(waits).toEqual([1000]);
    fixtures.setDown('semantic_scholar', { kind: 'status', status: 429 });
    const e = await failureOf(s2().search({ query: 'turing', limit: 2 }));
    expect(e.message).toMatch(/^Semantic Scholar: HTTP 429/);
    expect(e.status).toBe(429);
  });

  it('reports a malformed reply', async () => {
    fixtures.script('semantic_scholar', [{ kind: 'malformed', body: '{"data": 5}' }]);
    const e = await failureOf(s2().search({ query: 'turing', limit: 2 }));
    expect(e.message).toBe('Semantic Scholar: unexpected reply (paper search)');
  });
});
