import { describe, expect, it } from 'vitest';
import type { Paper, Trend } from '../../../../common/teams/literature';
import { checkFigures } from './figures';

const paper = (number: number, abstract: string, year?: number): Paper => ({
  number,
  title: `Paper ${number} on minimum wages`,
  authors: ['Ann Smith'],
  abstract,
  key_insight: 'k',
  methodology: 'm',
  findings: 'f',
  source: 'openalex',
  sources: ['openalex'],
  sourceId: `W${number}`,
  extractedFrom: 'abstract',
  ...(year ? { year } : {}),
});

const trend: Trend = {
  topic: 'minimum wage employment',
  description:
    'OpenAlex lists 300 works a year on "minimum wage employment" in 2022-2024 against 100 a year in 2014-2021 (+200%).',
  growth: 2,
  counts: [
    { year: 2014, count: 100 },
    { year: 2023, count: 300 },
  ],
  kind: 'overall',
};

const papers = [
  paper(1, 'Employment fell by 4.6 percent among teenagers after the 1992 increase.', 1994),
  paper(2, 'We study 410 restaurants in New Jersey.', 2000),
];

describe('checkFigures', () => {
  it('keeps figures found in the trend table or in the abstracts the sentence cites', () => {
    const text =
      'Output grew by 200% to 300 works a year since 2014. ' +
      'Teen employment fell 4.6% [1]. A survey of 410 restaurants found no fall [2]. ' +
      'The 1994 study [1] is a classic.';
    const out = checkFigures(text, { trends: [trend], papers });
    expect(out.unverified).toEqual([]);
    expect(out.markdown).toBe(text);
    expect(out.checked).toBe(6);
  });

  it('accepts a rounding of a computed value, not a different value', () => {
    const out = checkFigures('Growth was 199.6% or about 3 times, then 260% later.', {
      trends: [trend],
      papers,
    });
    expect(out.unverified.map((u) => u.figure)).toEqual(['199.6%', '260%']);
  });

  it('marks a figure found in neither, and logs the sentence it stands in', () => {
    const text = 'Employment fell by 12% in 2019 [1]. Output rose to 1,250 works a year.';
    const out = checkFigures(text, { trends: [trend], papers });
    expect(out.unverified).toEqual([
      { figure: '12%', sentence: 'Employment fell by 12% in 2019 [1].' },
      { figure: '2019', sentence: 'Employment fell by 12% in 2019 [1].' },
      { figure: '1,250', sentence: 'Output rose to 1,250 works a year.' },
    ]);
    expect(out.markdown).toBe(
      'Employment fell by 12% **[unverified figure]** in 2019 **[unverified figure]** [1]. ' +
        'Output rose to 1,250 **[unverified figure]** works a year.',
    );
  });

  it("checks a sentence's figures against the works it cites, else its paragraph's", () => {
    // 410 is in the abstract of work 2, not of work 1.
    const cited = checkFigures('They surveyed 410 restaurants [1]. Later work agrees [2].', {
      trends: [],
      papers,
    });
    expect(cited.unverified.map((u) => u.figure)).toEqual(['410']);
    const paragraph = checkFigures('They surveyed 410 restaurants. Later work agrees [2].', {
      trends: [],
      papers,
    });
    expect(paragraph.unverified).toEqual([]);
  });

  it('leaves alone what is not a figure of the prose', () => {
    const text = [
      '## 2. Methods in 1999',
      'Two-stage designs [1, 2] and an AR(1) model with $\\beta = 0.37$ and `n = 5000`.',
      'See https://doi.org/10.1234/abc.2017 and the 20th century, the 1990s and G7 countries.',
      'Three studies in 2 countries. **[Claim check: not supported by the abstract of work 12.]**',
      '```',
      'x = 12345',
      '```',
    ].join('\n');
    const out = checkFigures(text, { trends: [], papers });
    expect(out.unverified).toEqual([]);
    expect(out.checked).toBe(0);
    expect(out.markdown).toBe(text);
  });

  it("counts the researcher's own numbers, the search years and the number of works as known", () => {
    const out = checkFigures('Of the 2 works, since 2010, a 15% minimum wage rise.', {
      trends: [],
      papers,
      researcherText: 'What does a 15% minimum wage rise do?',
      years: [2010, undefined],
    });
    expect(out.unverified).toEqual([]);
  });
});
