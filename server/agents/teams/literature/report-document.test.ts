import { describe, expect, it } from 'vitest';
import { splitModelPassages } from '../../../../common/provenance';
import type { Paper, Trend } from '../../../../common/teams/literature';
import { formatBibliography, worksToCsl } from '../../../sources/bibliography';
import { workFromPaper } from './papers';
import {
  markModelSections,
  plainReport,
  reportProvenanceItems,
  trendTable,
} from './report-document';
import { gateGapTexts } from './research-gaps';

const paper = (number: number, extra: Partial<Paper> = {}): Paper => ({
  number,
  title: `Minimum wages and employment ${number}`,
  authors: ['David Card'],
  abstract: 'a',
  key_insight: 'k',
  methodology: 'm',
  findings: 'f',
  source: 'openalex',
  sources: ['openalex'],
  sourceId: `W${number}`,
  extractedFrom: 'abstract',
  year: 1994,
  ...extra,
});

const trend: Trend = {
  topic: 'minimum wage',
  description: 'd',
  growth: 0.456,
  counts: [
    { year: 2015, count: 10 },
    { year: 2014, count: 8 },
  ],
  kind: 'overall',
};

describe('the review as a document', () => {
  it("marks each of the model's sections as its own, headings and references outside", () => {
    const { markdown, passages } = markModelSections(
      'Opening words.\n\n## Introduction\n\nText [1].\n\n## Empty\n\n## Conclusion\n\nMore [2].',
    );
    expect(passages).toEqual(['Opening', 'Introduction', 'Conclusion']);
    const segments = splitModelPassages(markdown);
    expect(segments.filter((s) => s.kind === 'model').map((s) => [s.title, s.text])).toEqual([
      ['Opening', 'Opening words.'],
      ['Introduction', 'Text [1].'],
      ['Conclusion', 'More [2].'],
    ]);
    expect(markdown).toContain('## Introduction\n\n<!-- origin:model -->');
    expect(markdown).toContain('## Empty');
    // What the model sees again at a revision: its text, without the marks.
    expect(plainReport(`${markdown}\n\n## References\n\n- [1] x`)).not.toMatch(
      /origin:model|Written by the model/,
    );
    expect(plainReport(markdown)).toContain('Text [1].');
  });

  it('writes the computed trend table, years in order', () => {
    const table = trendTable([trend]);
    expect(table).toContain('## Publication Trends (computed)');
    expect(table).toContain('| minimum wage | overall | +46% | 2014: 8, 2015: 10 |');
    expect(trendTable([])).toBe('');
  });

  it('gives each reference, the trend table and each passage its origin', () => {
    expect(
      reportProvenanceItems({
        cited: [paper(1, { doi: '10.1/x' }), paper(2)],
        trends: [trend],
        passages: ['Thematic Synthesis'],
      }),
    ).toEqual([
      { key: 'reference:W1', origin: 'retrieved', ref: 'doi:10.1/x' },
      { key: 'reference:W2', origin: 'retrieved', ref: 'openalex:W2' },
      { key: 'table:trends', origin: 'computed', ref: 'openalex:counts-by-year' },
      { key: 'passage:thematic-synthesis', origin: 'model' },
    ]);
  });

  it('writes a valid BibTeX month for a work published on a day', () => {
    const bib = formatBibliography(
      worksToCsl([workFromPaper(paper(1, { published: '1994-06-01' }))]),
      'bibtex',
    );
    expect(bib).toMatch(/^\s*month = jun,$/m);
    expect(bib).not.toMatch(/month = \{/);
  });
});

describe('gap texts through the citation gate', () => {
  it('removes references to works not retrieved and keeps retrieved ones', () => {
    const { gaps, removed } = gateGapTexts(
      [
        {
          gap_description:
            'Long-run effects are unknown [1], as Fabricated, A. (2031) argued (doi 10.9999/fabricated.2031).',
          opportunity: 'Panel data [7].',
          recommendation: 'Follow Card (1994).',
          supporting_papers: [1],
        },
      ],
      [paper(1)],
    );
    expect(gaps[0]!.gap_description).not.toMatch(/Fabricated|10\.9999/);
    expect(gaps[0]!.gap_description).toContain('[1]');
    expect(gaps[0]!.opportunity).toBe('Panel data.');
    expect(gaps[0]!.recommendation).toBe('Follow Card (1994).');
    expect(removed.map((r) => r.citation)).toEqual(
      expect.arrayContaining(['[7]', 'doi 10.9999/fabricated.2031']),
    );
  });
});
