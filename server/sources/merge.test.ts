import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../../test/fixtures/literature-sources/server';
import { createHttpClient } from '../platform/http';
import { createArxiv } from './arxiv';
import { createCrossref } from './crossref';
import { dedupeWorks, queryTerms, rankWorks, textMatch } from './merge';
import { createOpenAlex } from './openalex';
import { searchSources } from './search';
import { createSemanticScholar } from './semantic-scholar';
import { isTrustedHost, trustedUrl } from './trusted-hosts';
import {
  AllSourcesFailedError,
  normaliseArxivId,
  normaliseDoi,
  normaliseTitle,
  titleWords,
  type LiteratureSource,
  type Work,
} from './work';

const work = (w: Partial<Work> & Pick<Work, 'title' | 'source'>): Work => ({
  sources: [w.source],
  sourceId: w.title,
  authors: [],
  rank: 0,
  ...w,
});

describe('identifiers and titles', () => {
  it('normalises DOIs, arXiv ids and titles', () => {
    expect(normaliseDoi('https://doi.org/10.1111/ELE.14024')).toBe('10.1111/ele.14024');
    expect(normaliseDoi('doi:10.1086/296025.')).toBe('10.1086/296025');
    expect(normaliseDoi('https://dx.doi.org/10.1659%2F0276-4741')).toBe('10.1659/0276-4741');
    expect(normaliseDoi('not a doi')).toBeUndefined();
    expect(normaliseArxivId('http://arxiv.org/abs/2202.12139v1')).toBe('2202.12139');
    expect(normaliseArxivId('10.48550/arxiv.2201.11990')).toBe('2201.11990');
    expect(normaliseArxivId('hep-th/9901001v2')).toBe('hep-th/9901001');
    expect(normaliseTitle('The <i>Forecast</i> Trap.')).toBe('the forecast trap');
    expect(normaliseTitle('Économie  politique')).toBe('economie politique');
  });

  it('splits text into words exactly as the Unicode-property definition does', () => {
    // The definition titleWords replaces: decompose, drop marks and markup, fold case, split at
    // everything that is neither a letter nor a digit.
    const byRegex = (t: string) =>
      t
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .replace(/<[^>]+>/g, ' ')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    const pieces = [
      'a',
      'Z',
      '9',
      ' ',
      '-',
      '<b>',
      '</b>',
      'é',
      'É',
      'ﬁ',
      'İ',
      'ß',
      '²',
      '½',
      'Ⅻ',
      '中',
      '文',
      '😀',
      '𝑥',
      '\u0301',
      '\ud800',
      '\udc00',
      'Σ',
      'ς',
      'ǅ',
      '\u00a0',
      '\u2003',
      '٣',
      'ا',
      'K',
      'ı',
      '\t',
      '\n',
      '.',
      "'",
      '’',
      '–',
    ];
    // A fixed pseudo-random sequence: the same strings every run.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const texts = ['', 'The <i>Forecast</i> Trap.', 'Économie  politique', ' 2nd-order  effects… '];
    for (let i = 0; i < 3000; i++) {
      let t = '';
      for (let n = Math.floor(next() * 14); n > 0; n--)
        t += pieces[Math.floor(next() * pieces.length)];
      texts.push(t);
    }
    const differ = texts.filter(
      (t) =>
        normaliseTitle(t) !== byRegex(t) ||
        titleWords(t).join('|') !== byRegex(t).split(' ').filter(Boolean).join('|'),
    );
    expect(differ).toEqual([]);
  });
});

describe('dedupeWorks', () => {
  it('merges by DOI, then arXiv id, then title and year, keeping the best fields', () => {
    const merged = dedupeWorks([
      [
        work({
          source: 'openalex',
          title: 'Trade and Wages',
          doi: '10.1/a',
          year: 2001,
          citations: 10,
        }),
        work({ source: 'openalex', title: 'Minimum Wages and Employment', year: 1994, rank: 1 }),
      ],
      [
        work({
          source: 'crossref',
          title: 'Trade and wages.',
          doi: '10.1/a',
          year: 2001,
          citations: 14,
          abstract: 'A longer abstract.',
        }),
        work({ source: 'crossref', title: 'Minimum wages and employment', year: 1994, rank: 1 }),
        work({ source: 'crossref', title: 'Minimum wages and employment', year: 2004, rank: 2 }),
      ],
      [
        work({
          source: 'arxiv',
          title: 'Deep Learning for Economists',
          arxivId: '2101.00001',
          doi: '10.48550/arxiv.2101.00001',
        }),
      ],
      [
        work({
          source: 'semantic_scholar',
          title: 'Deep learning for economists (journal version)',
          arxivId: '2101.00001',
          doi: '10.1257/jel.1',
        }),
      ],
    ]);
    expect(merged).toHaveLength(4);
    const trade = merged.find((m) => m.doi === '10.1/a')!;
    expect(trade.sources).toEqual(['openalex', 'crossref']);
    expect(trade.citations).toBe(14);
    expect(trade.abstract).toBe('A longer abstract.');
    expect(trade.ranks).toEqual({ openalex: 0, crossref: 0 });
    // Same title, different year: two works (a 1994 paper and its 2004 namesake).
    expect(
      merged.filter((m) => normaliseTitle(m.title) === 'minimum wages and employment'),
    ).toHaveLength(2);
    // The journal DOI replaces the preprint's arXiv DOI.
    expect(merged.find((m) => m.arxivId === '2101.00001')?.doi).toBe('10.1257/jel.1');
  });

  it('matches a long title when one record has no year', () => {
    const merged = dedupeWorks([
      [
        work({
          source: 'library',
          title: 'Governance Matters IV: Governance Indicators for 1996-2004',
        }),
      ],
      [
        work({
          source: 'openalex',
          title: 'Governance Matters IV : Governance Indicators For 1996-2004',
          year: 2005,
        }),
      ],
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.year).toBe(2005);
  });
});

describe('rankWorks', () => {
  const base = dedupeWorks([
    [
      work({
        source: 'openalex',
        title: 'Minimum wage effects on teen employment',
        year: 2020,
        citations: 5,
        rank: 0,
      }),
      work({
        source: 'openalex',
        title: 'A survey of labour markets',
        year: 1990,
        citations: 5000,
        rank: 1,
      }),
      work({
        source: 'openalex',
        title: 'Unrelated ecology paper',
        year: 2023,
        citations: 0,
        rank: 2,
      }),
    ],
  ]);

  it('ranks by relevance, citations and recency with adjustable weights', () => {
    const ranked = rankWorks(base, 'minimum wage employment', { currentYear: 2024 });
    expect(ranked[0]?.title).toBe('Minimum wage effects on teen employment');
    expect(ranked.every((w, i) => i === 0 || ranked[i - 1]!.score >= w.score)).toBe(true);
    const byCitations = rankWorks(base, 'minimum wage employment', {
      currentYear: 2024,
      weights: { relevance: 0, citations: 1, recency: 0 },
    });
    expect(byCitations[0]?.title).toBe('A survey of labour markets');
    const byRecency = rankWorks(base, 'minimum wage employment', {
      currentYear: 2024,
      weights: { relevance: 0, citations: 0, recency: 1 },
    });
    expect(byRecency[0]?.title).toBe('Unrelated ecology paper');
  });

  it('filters by year bounds and limits', () => {
    const after2010 = rankWorks(base, 'x', { fromYear: 2010, currentYear: 2024 });
    expect(after2010.map((w) => w.year)).toEqual(expect.arrayContaining([2020, 2023]));
    expect(after2010.some((w) => w.year === 1990)).toBe(false);
    expect(rankWorks(base, 'x', { limit: 1 })).toHaveLength(1);
  });

  it('measures term coverage in title and abstract', () => {
    const terms = queryTerms('The effects of minimum wages on employment');
    expect(terms).toEqual(['minimum', 'wage', 'employment']);
    expect(textMatch(terms, { title: 'Minimum wages and employment' })).toBeCloseTo(2 / 3);
    expect(textMatch(terms, { title: 'Nothing', abstract: 'minimum wage employment' })).toBeCloseTo(
      1 / 3,
    );
  });
});

describe('trusted hosts', () => {
  it('keeps academic and institutional links and drops others', () => {
    for (const ok of [
      'https://doi.org/10.1/a',
      'https://www.aeaweb.org/articles?id=1',
      'https://onlinelibrary.wiley.com/doi/x',
      'https://arxiv.org/abs/2202.12139',
      'https://econ.mit.edu/paper.pdf',
      'https://www.ox.ac.uk/x',
      'https://documents.worldbank.org/x',
      'https://www.federalreserve.gov/x',
    ])
      expect(trustedUrl(ok), ok).toBe(ok);
    for (const bad of [
      'https://example.com/paper',
      'https://doi.org.evil.com/x',
      'javascript:alert(1)',
      'ftp://arxiv.org/x',
      'https://user:pw@arxiv.org/x',
      'not a url',
    ])
      expect(trustedUrl(bad), bad).toBeUndefined();
    expect(isTrustedHost('evilarxiv.org')).toBe(false);
  });
});

describe('searchSources over the fixture servers', () => {
  let fixtures: LiteratureFixtures;
  const http = createHttpClient({
    allowPrivateHosts: ['127.0.0.1'],
    // Long enough for a first, cold request on a busy machine; the hanging source's case waits it out.
    timeoutMs: 2000,
    retries: 1,
    sleep: () => Promise.resolve(),
  });
  let sources: LiteratureSource[];

  beforeAll(async () => {
    fixtures = await startLiteratureFixtures();
    sources = [
      createOpenAlex({ http, baseUrl: fixtures.urls.openalex }),
      createCrossref({ http, baseUrl: fixtures.urls.crossref }),
      createArxiv({ http, baseUrl: fixtures.urls.arxiv }),
      createSemanticScholar({ http, baseUrl: fixtures.urls.semantic_scholar }),
    ];
  });
  afterAll(async () => {
    await fixtures.close();
    await http.close();
  });
  beforeEach(() => fixtures.reset());

  it('merges, de-duplicates and ranks the four sources', async () => {
    const result = await searchSources(sources, 'biodiversity conservation payments', {
      perSource: 25,
      limit: 40,
    });
    expect(result.failures).toEqual([]);
    expect(result.reports.map((r) => [r.source, r.count])).toEqual([
      ['openalex', 25],
      ['crossref', 22],
      ['arxiv', 20],
      ['semantic_scholar', 25],
    ]);
    expect(result.retrievedCount).toBe(92);
    expect(result.works).toHaveLength(40);
    const dois = result.works.map((w) => w.doi).filter(Boolean);
    expect(new Set(dois).size).toBe(dois.length);
    expect(result.works.every((w) => !w.url || trustedUrl(w.url) === w.url)).toBe(true);
    // Relevance to the query counts: a matching title is near the top.
    expect(result.works.slice(0, 5).some((w) => /biodiversity/i.test(w.title))).toBe(true);
  });

  it('keeps going when some sources fail, and reports them', async () => {
    fixtures.setDown('crossref', { kind: 'status', status: 500 });
    fixtures.setDown('arxiv', { kind: 'malformed', body: 'garbage' });
    const result = await searchSources(sources, 'x', { perSource: 5 });
    expect(result.works.length).toBeGreaterThan(0);
    expect(result.failures.map((f) => f.source).sort()).toEqual(['arxiv', 'crossref']);
    expect(result.reports.find((r) => r.source === 'crossref')?.error).toMatch(/HTTP 500/);
  });

  it('fails naming every source and its error when all are unreachable', async () => {
    fixtures.setDown('openalex', { kind: 'status', status: 503 });
    fixtures.setDown('crossref', { kind: 'hang' });
    fixtures.setDown('arxiv', { kind: 'malformed', body: '<html/>' });
    fixtures.setDown('semantic_scholar', {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '1' },
    });
    const error = await searchSources(sources, 'x', { perSource: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AllSourcesFailedError);
    const message = (error as Error).message;
    expect(message).toMatch(/OpenAlex: HTTP 503/);
    expect(message).toMatch(/Crossref: No complete reply/);
    expect(message).toMatch(/arXiv: reply is not an Atom feed/);
    expect(message).toMatch(/Semantic Scholar: HTTP 429/);
  });
});
