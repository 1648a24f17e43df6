import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfBomb } from '../../test/fixtures/hostile-files';
import { makePdf } from '../../test/fixtures/literature-sources/pdf';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../../test/fixtures/literature-sources/server';
import { createHttpClient } from '../platform/http';
import {
  decodeText,
  formatBibliography,
  importBibtex,
  importReferenceFile,
  importRis,
  repairEntry,
  splitBibtex,
  worksToCsl,
} from './bibliography';
import { createCrossref } from './crossref';
import {
  abstractFromText,
  createLibrarySource,
  importLibrary,
  readPdf,
  titleSimilarity,
} from './library';
import { createOpenAlex } from './openalex';
import type { Work } from './work';

const bib = (name: string) =>
  fs.readFileSync(
    new URL(`../../test/fixtures/literature-sources/bibliography/${name}`, import.meta.url),
    'utf8',
  );

/** What must survive a round trip: identifiers, title, year, authors' family names. */
const essence = (works: Work[]) =>
  works.map((w) => ({
    title: w.title,
    doi: w.doi,
    year: w.year,
    families: w.authors.map((a) => a.family ?? a.name),
  }));

describe('BibTeX import', () => {
  it('reads the QuantEcon bibliography: every entry, DOIs, authors, years', () => {
    const { works, skipped } = importBibtex(bib('quantecon_quant-econ.bib'));
    expect(skipped).toEqual([]);
    expect(works.length).toBeGreaterThan(500);
    expect(works.filter((w) => w.doi).length).toBeGreaterThanOrEqual(76);
    const first = works.find((w) => w.sourceId === 'BreedenLitzenberger1978')!;
    expect(first).toMatchObject({
      source: 'library',
      title: 'Prices of State-Contingent Claims Implicit in Option Prices',
      doi: '10.1086/296025',
      year: 1978,
      venue: 'Journal of Business',
      url: 'https://doi.org/10.1086/296025',
    });
    expect(first.authors.map((a) => a.family)).toEqual(['Breeden', 'Litzenberger']);
  });

  it('survives the messy Econ-ARK file: macros, odd types, TeX accents, duplicates', () => {
    const { works, skipped } = importBibtex(bib('econ-ark_HARK_economics.bib'));
    expect(works.length).toBeGreaterThan(1800);
    expect(skipped).toEqual([]);
    const names = (key: string) =>
      works.find((w) => w.sourceId === key)?.authors.map((a) => a.name);
    // Entries with accents closed before their letter (B{\'}enabou) are repaired, not lost.
    expect(names('benabou:inequality')).toEqual(['Roland Bénabou']);
    expect(names('bss06')).toEqual(['Alena Bičáková', 'Jiri Slačálek', 'Michal Slavík']);
    expect(names('LPSorensen:2006')).toEqual(['María José Luengo-Prado', 'Bent Sorensen']);
    // No TeX left in titles or names.
    expect(
      works.filter((w) => /[{}\\]/.test(w.title + w.authors.map((a) => a.name).join())),
    ).toEqual([]);
  });

  it('skips an entry it cannot read and keeps the rest, macros included', () => {
    const text = [
      '@string{jpe = "Journal of Political Economy"}',
      '@comment{ignored}',
      '@article{good1, title={Good One}, author={Doe, Jane}, journal=jpe, year=2001}',
      '@article{bad, title={Broken, author={Nobody}, year=2002',
      '@article{good2, title={Good Two}, author={Roe, Ann}, year=2003}',
    ].join('\n');
    const { works, skipped } = importBibtex(text);
    expect(works.map((w) => w.title)).toEqual(['Good One', 'Good Two']);
    expect(works[0]?.venue).toBe('Journal of Political Economy');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.entry).toMatch(/^@article\{bad/);
  });

  it('splits entries by matching braces and repairs accents and elided values', () => {
    expect(splitBibtex('x @a{k, t={a{b}c}} y @b(k2, t={)}) z').map((e) => e.type)).toEqual([
      'a',
      'b',
    ]);
    expect(repairEntry(String.raw`B{\'}enabou, Rutstr{\"}{o}m, Bi{\v} c, volume = ...,`)).toBe(
      String.raw`B{\'e}nabou, Rutstr{\"o}m, Bi{\v{c}}, volume = {},`,
    );
  });

  it('reads Latin-1 bytes when they are not valid UTF-8', () => {
    const latin1 = Buffer.from('@article{k, title={Économie}, year=1999}', 'latin1');
    expect(decodeText(latin1)).toBe('@article{k, title={Économie}, year=1999}');
    expect(importReferenceFile('refs.bib', latin1).works[0]?.title).toBe('Économie');
  });
});

describe('RIS import', () => {
  // Records written from the RIS specification (TY first, ER last, two spaces before the dash).
  const ris = [
    'TY  - JOUR',
    'AU  - Card, David',
    'AU  - Krueger, Alan B.',
    'TI  - Minimum Wages and Employment: A Case Study of the Fast-Food Industry in New Jersey and Pennsylvania',
    'T2  - American Economic Review',
    'PY  - 1994',
    'VL  - 84',
    'IS  - 4',
    'SP  - 772',
    'EP  - 793',
    'DO  - 10.3386/w4509',
    'AB  - On April 1, 1992, New Jersey raised its minimum wage.',
    'ER  - ',
    'TY  - BOOK',
    'AU  - Sargent, Thomas J.',
    'TI  - Dynamic Macroeconomic Theory',
    'PY  - 1987',
    'PB  - Harvard University Press',
    'ER  - ',
    '',
  ].join('\n');

  it('reads journal articles and books', () => {
    const { works } = importRis(ris);
    expect(works).toHaveLength(2);
    expect(works[0]).toMatchObject({
      title:
        'Minimum Wages and Employment: A Case Study of the Fast-Food Industry in New Jersey and Pennsylvania',
      doi: '10.3386/w4509',
      year: 1994,
      venue: 'American Economic Review',
      abstract: 'On April 1, 1992, New Jersey raised its minimum wage.',
    });
    expect(works[0]?.authors.map((a) => a.family)).toEqual(['Card', 'Krueger']);
    expect(works[1]).toMatchObject({
      title: 'Dynamic Macroeconomic Theory',
      year: 1987,
      type: 'book',
    });
  });
});

describe('export and round trips (citation-js both ways)', () => {
  it('BibTeX -> works -> BibTeX -> works keeps every identifier, title, year and author', () => {
    const original = importBibtex(bib('quantecon_quant-econ.bib')).works;
    const text = formatBibliography(worksToCsl(original), 'bibtex');
    expect(text).toMatch(/^@/);
    const again = importBibtex(text);
    expect(again.skipped).toEqual([]);
    expect(essence(again.works)).toEqual(essence(original));
  });

  it('BibTeX -> RIS -> works keeps them too', () => {
    const original = importBibtex(bib('quantecon_quant-econ.bib')).works.slice(0, 120);
    const text = formatBibliography(worksToCsl(original), 'ris');
    expect(text.startsWith('TY  - ')).toBe(true);
    expect(essence(importRis(text).works)).toEqual(essence(original));
  });

  it('writes CSL-JSON that reads back, with unique citation keys', () => {
    const works: Work[] = [
      {
        source: 'openalex',
        sources: ['openalex'],
        sourceId: 'W1',
        title: 'A',
        authors: [{ name: 'Jane Doe' }],
        year: 2001,
        rank: 0,
      },
      {
        source: 'crossref',
        sources: ['crossref'],
        sourceId: 'x',
        title: 'B',
        authors: [{ name: 'Jane Doe' }],
        year: 2001,
        rank: 1,
        doi: '10.1234/b',
      },
    ];
    const items = worksToCsl(works);
    expect(items.map((i) => i.id)).toEqual(['Doe2001', 'Doe2001a']);
    expect(items[0]?.author).toEqual([{ given: 'Jane', family: 'Doe' }]);
    const json = formatBibliography(items, 'csl-json');
    const back = importReferenceFile('refs.json', Buffer.from(json));
    expect(back.works.map((w) => [w.title, w.year, w.doi])).toEqual([
      ['A', 2001, undefined],
      ['B', 2001, '10.1234/b'],
    ]);
  });
});

describe('PDF library import', () => {
  let fixtures: LiteratureFixtures;
  const http = createHttpClient({ allowPrivateHosts: ['127.0.0.1'], retries: 0 });
  beforeAll(async () => {
    fixtures = await startLiteratureFixtures();
  });
  afterAll(async () => {
    await fixtures.close();
    await http.close();
  });
  const matchers = () => ({
    crossref: createCrossref({ http, baseUrl: fixtures.urls.crossref }),
    openalex: createOpenAlex({ http, baseUrl: fixtures.urls.openalex }),
  });

  const paper = makePdf({
    title: 'The forecast trap',
    author: 'Carl Boettiger',
    pages: [
      [
        'The forecast trap',
        'Carl Boettiger',
        'https://doi.org/10.1111/ele.14024',
        'Abstract',
        'Model-based forecasts have garnered increasing influence on decisions.',
        'We show how a forecast can be a trap for decision makers.',
        '1 Introduction',
        'Forecasts are everywhere.',
      ],
      ['Second page text.'],
    ],
  });

  it('extracts text, Info title and the DOI printed on the first page', async () => {
    const pdf = await readPdf(paper);
    expect(pdf.pages).toBe(2);
    expect(pdf.title).toBe('The forecast trap');
    expect(pdf.author).toBe('Carl Boettiger');
    expect(pdf.doi).toBe('10.1111/ele.14024');
    expect(pdf.text).toContain('Second page text.');
    expect(abstractFromText(pdf.text)).toBe(
      'Model-based forecasts have garnered increasing influence on decisions. We show how a forecast can be a trap for decision makers.',
    );
  });

  it('reports a PDF whose streams inflate past the limit, and imports the other files', async () => {
    const bomb = pdfBomb({ streams: 20, inflatedEach: 16 * 1024 * 1024 });
    const imported = await importLibrary([
      { name: 'bomb.pdf', bytes: bomb },
      { name: 'paper.pdf', bytes: paper },
    ]);
    expect(imported.files[0]).toMatchObject({ name: 'bomb.pdf', works: 0 });
    expect(imported.files[0]!.error).toMatch(/unpacks to more than the limit of 256 MB/);
    expect(imported.files[1]).toMatchObject({ name: 'paper.pdf', works: 1 });
  });

  it('matches metadata by DOI, else by title, else keeps the PDF as it is', async () => {
    const byTitle = makePdf({
      pages: [['Deep reinforcement learning for conservation decisions', 'Some Author', 'Text']],
    });
    const unknown = makePdf({
      title: 'An unpublished note on nothing in particular',
      pages: [
        [
          'An unpublished note on nothing in particular',
          'Abstract',
          'We say very little here, on purpose, at some length.',
        ],
      ],
    });
    const result = await importLibrary(
      [
        { name: 'trap.pdf', bytes: paper },
        { name: 'forecasting.pdf', bytes: byTitle },
        { name: 'note.pdf', bytes: unknown },
        { name: 'broken.pdf', bytes: new Uint8Array(Buffer.from('not a pdf')) },
        {
          name: 'refs.bib',
          bytes: new Uint8Array(Buffer.from('@article{k, title={Kept}, year=2000}')),
        },
      ],
      matchers(),
    );
    expect(result.files.map((f) => [f.name, f.matchedBy ?? f.kind, f.works])).toEqual([
      ['trap.pdf', 'doi', 1],
      ['forecasting.pdf', 'title', 1],
      ['note.pdf', 'none', 1],
      ['broken.pdf', 'pdf', 0],
      ['refs.bib', 'bibtex', 1],
    ]);
    expect(result.files[3]?.error).toBeTruthy();
    const [trap, forecasting, note] = result.works;
    expect(trap).toMatchObject({
      source: 'library',
      doi: '10.1111/ele.14024',
      year: 2022,
      sourceId: 'trap.pdf',
    });
    expect(trap?.sources).toEqual(['library', 'crossref']);
    expect(forecasting?.doi).toBeTruthy();
    expect(
      titleSimilarity(forecasting!.title, 'Deep reinforcement learning for conservation decisions'),
    ).toBeGreaterThanOrEqual(0.8);
    // Unmatched: its own title and abstract, no invented DOI or year.
    expect(note).toMatchObject({
      title: 'An unpublished note on nothing in particular',
      sourceId: 'note.pdf',
    });
    expect(note?.doi).toBeUndefined();
    expect(note?.year).toBeUndefined();
    expect(note?.abstract).toBe('We say very little here, on purpose, at some length.');
  });
});

describe('library source', () => {
  it('finds the library works that match the query', async () => {
    const { works } = importBibtex(bib('quantecon_quant-econ.bib'));
    const library = createLibrarySource(works);
    const result = await library.search({ query: 'option pricing', limit: 5 });
    expect(result.works.length).toBeGreaterThan(0);
    expect(result.works.length).toBeLessThanOrEqual(5);
    expect(result.works.every((w) => /option|pric/i.test(w.title + (w.abstract ?? '')))).toBe(true);
    expect(result.works.map((w) => w.rank)).toEqual([...result.works.keys()]);
    const after2000 = await library.search({ query: 'option pricing', fromYear: 2000 });
    expect(after2000.works.every((w) => (w.year ?? 0) >= 2000)).toBe(true);
  });
});
