import { describe, expect, it } from 'vitest';
import type { Work } from '../../../sources/work';
import { loadLibrary, workFromPdfDocument } from './sources';

const pdfText = [
  'Conservation payments and rural livelihoods',
  'https://doi.org/10.1017/S1355770X08004282.',
  'Abstract',
  'We study payments for ecosystem services among poor farmers in Costa Rica and their incomes.',
  '1. Introduction',
].join('\n');

const published: Work = {
  source: 'crossref',
  sources: ['crossref'],
  sourceId: '10.1017/s1355770x08004282',
  title: 'Payments for environmental services and the poor',
  authors: [{ name: 'Sven Wunder' }],
  rank: 0,
  year: 2008,
  doi: '10.1017/s1355770x08004282',
};

describe('project documents as the library', () => {
  it('reads a PDF document by the DOI printed in it, keeping its own abstract', async () => {
    const asked: string[] = [];
    const work = await workFromPdfDocument(
      { id: 'd1', name: 'wunder.pdf', content: pdfText },
      {
        workByDoi: async (doi) => {
          asked.push(doi);
          return published;
        },
      },
      3,
    );
    expect(asked).toEqual(['10.1017/s1355770x08004282']);
    expect(work).toMatchObject({
      title: 'Payments for environmental services and the poor',
      source: 'library',
      sources: ['library', 'crossref'],
      sourceId: 'wunder.pdf',
      rank: 3,
      year: 2008,
    });
    expect(work.abstract).toMatch(/^We study payments for ecosystem services/);
  });

  it('keeps an unmatched PDF under its name', async () => {
    const work = await workFromPdfDocument(
      { id: 'd1', name: 'draft.pdf', content: 'No identifier here.' },
      { workByDoi: async () => undefined },
      0,
    );
    expect(work).toMatchObject({ title: 'draft', sources: ['library'], authors: [] });
  });

  it('reads BibTeX and PDF documents of the project and says what each gave', async () => {
    const docs: Record<string, { id: string; name: string; format: string; content: string }> = {
      b: {
        id: 'b',
        name: 'refs',
        format: 'bib',
        content:
          '@article{k, title={Minimum wages and employment}, author={Card, David}, year={1994}}',
      },
      p: { id: 'p', name: 'paper.pdf', format: 'pdf', content: pdfText },
    };
    const load = await loadLibrary(
      { library: [], libraryDocumentIds: ['b', 'p'] },
      {
        documents: {
          read: async (id: string) => docs[id]!,
        } as never,
      },
      { workByDoi: async () => undefined },
    );
    expect(load.works.map((w) => [w.title, w.rank])).toEqual([
      ['Minimum wages and employment', 0],
      ['paper', 1],
    ]);
    expect(load.notes).toEqual([
      'Read 1 works from the project document "refs"',
      'Read the PDF "paper.pdf" from the project as the work "paper"',
    ]);
  });
});
