import { describe, expect, it } from 'vitest';
import { gateCitations } from '../../kit';
import { canonicalModel } from '../../../engines/models/library';
import { libraryWorks, parseLibraryCitation, reviewWorks } from './known-works';

describe('known works of a Model session', () => {
  it('reads a library citation into its authors, year and title', () => {
    expect(
      parseLibraryCitation(
        'King, R. G., Plosser, C. I. and Rebelo, S. T. (1988). Production, Growth and Business Cycles: I. The Basic Neoclassical Model. Journal of Monetary Economics, 21(2-3), 195-232.',
      ),
    ).toEqual({
      authors: ['King, R. G.', 'Plosser, C. I.', 'Rebelo, S. T.'],
      year: 1988,
      title: 'Production, Growth and Business Cycles: I. The Basic Neoclassical Model',
    });
    expect(
      parseLibraryCitation(
        'Galí, J. (2015). Monetary Policy, Inflation, and the Business Cycle (2nd ed.), chapter 3. Princeton University Press.',
      ),
    ).toMatchObject({ authors: ['Galí, J.'], year: 2015 });
    expect(parseLibraryCitation('An untitled note')).toEqual({
      authors: [],
      year: undefined,
      title: 'An untitled note',
    });
  });

  it("lets the gate keep the library's references and remove invented ones", () => {
    const works = libraryWorks('RBC', canonicalModel('RBC')).map((w) => ({
      ...w,
      year: w.year ?? undefined,
    }));
    expect(works[0]).toMatchObject({ id: 'library:RBC:1', source: 'library', number: 1 });
    const text =
      'Productivity drives the cycle (Kydland and Prescott 1982) [2], unlike Smith (2029) and [9].';
    const gated = gateCitations(text, works);
    expect(gated.text).toContain('(Kydland and Prescott 1982) [2]');
    expect(gated.text).not.toMatch(/Smith|\[9\]/);
    expect(gated.removed).toHaveLength(2);
  });

  it("takes a review's verified works without empty titles", () => {
    expect(
      reviewWorks({
        references: [
          { id: 'W1', title: 'Sticky prices', doi: '10.1/x' },
          { id: 'W2', title: '  ' },
        ],
      }),
    ).toEqual([{ id: 'W1', source: 'review', title: 'Sticky prices', authors: [], doi: '10.1/x' }]);
    expect(reviewWorks(undefined)).toEqual([]);
  });
});
