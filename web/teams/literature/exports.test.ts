import { describe, expect, it } from 'vitest';
import type { Reference } from '../../../common/teams/literature';
import { referencesToCsl, unwrapRis } from '../../../common/teams/literature-citations';
import { formatReferences } from './exports';

const ref = (number: number, title: string, authors: string[], year?: number): Reference => ({
  number,
  title,
  authors,
  ...(year ? { year, published: `${year}-05-30` } : {}),
  doi: `10.1234/r${number}`,
  url: `https://doi.org/10.1234/r${number}`,
  venue: 'Journal of Tests',
  source: 'crossref',
  line: `${authors.join(' and ')} (${year ?? 'n.d.'}). ${title}.`,
});

const refs = [
  ref(
    1,
    'Variance Bounds on the Permanent and Transitory Components of Stochastic Discount Factors',
    ['Gurdip Bakshi', 'Fousseni Chabi-Yo'],
    2012,
  ),
  ref(2, 'A second work by the same author', ['Gurdip Bakshi'], 2012),
  ref(3, 'Undated', ['Plato']),
];

describe('citation exports (citation-js in the browser)', () => {
  it('maps references to CSL-JSON with unique keys and the citation number', () => {
    const items = referencesToCsl(refs);
    expect(items.map((i) => i.id)).toEqual(['Bakshi2012', 'Bakshi2012a', 'Platond']);
    expect(items[0]).toMatchObject({
      author: [
        { given: 'Gurdip', family: 'Bakshi' },
        { given: 'Fousseni', family: 'Chabi-Yo' },
      ],
      issued: { 'date-parts': [[2012, 5, 30]] },
      DOI: '10.1234/r1',
      note: 'Reference [1] of the review',
    });
    expect(items[2]?.author).toEqual([{ literal: 'Plato' }]);
  });

  it('writes BibTeX, RIS (long titles kept whole) and CSL-JSON', async () => {
    const bib = await formatReferences(refs, 'bibtex');
    expect(bib.match(/^@\w+\{/gm)).toHaveLength(3);
    expect(bib).toContain('doi = {10.1234/r1}');
    const ris = await formatReferences(refs, 'ris');
    expect(ris).toContain(
      'TI  - Variance Bounds on the Permanent and Transitory Components of Stochastic Discount Factors',
    );
    expect(ris.match(/^TY {2}- /gm)).toHaveLength(3);
    const csl = JSON.parse(await formatReferences(refs, 'csl-json')) as unknown[];
    expect(csl).toHaveLength(3);
  });

  it('unwraps hard-wrapped RIS lines', () => {
    expect(unwrapRis('TY  - JOUR\nTI  - Stochast\nic Discount\nER  - ')).toBe(
      'TY  - JOUR\nTI  - Stochastic Discount\nER  - ',
    );
  });
});
