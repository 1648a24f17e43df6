import { describe, expect, it } from 'vitest';
import type { Paper, ResearchGap } from '../../../../common/teams/literature';
import { insertFlags } from './claims';
import { validateGaps } from './research-gaps';
import { buildReferences, cutTitle, referenceLine } from './papers';
import { yearsFromFeedback } from './plan';
import { candidateTopics, growthOf } from './trends';
import { citedSentences, unwrapParagraphs, verifyReport } from './verifier';

const paper = (number: number, extra: Partial<Paper> = {}): Paper => ({
  number,
  title: `Paper number ${number} on conservation payments`,
  authors: ['Sven Wunder', 'Ana Smith'],
  abstract: 'An abstract.',
  key_insight: '',
  methodology: '',
  findings: '',
  source: 'openalex',
  sources: ['openalex'],
  sourceId: `W${number}`,
  extractedFrom: 'abstract',
  year: 2000 + number,
  doi: `10.1234/p${number}`,
  ...extra,
});

const papers = [1, 2, 3].map((n) => paper(n));

describe('citation verifier (deterministic)', () => {
  it('keeps citations of retrieved works and removes numbers outside the set', () => {
    const v = verifyReport('Trade matters [1]. Also [2, 3] and [2-4]. And [40].', papers);
    expect(v.body).toBe('Trade matters [1]. Also [2, 3] and [2, 3]. And.');
    expect(v.citationsRemoved.map((r) => r.citation)).toEqual(['[4]', '[40]']);
    expect(v.citationsRemoved[1]?.reason).toBe(
      'no work 40 was retrieved in this session (the retrieved set is 1-3)',
    );
    expect(v.cited).toEqual([1, 2, 3]);
  });

  it('rewrites author-year citations that resolve and removes those that do not', () => {
    const v = verifyReport(
      'Payments work (Wunder et al., 2001). Wunder and Smith (2002) agree. (Nobody, 1999) disagrees. Fake et al. (2010) too.',
      papers,
    );
    // Removed where the sentence stands without them; a note to the reader where it would not.
    expect(v.body).toBe(
      'Payments work [1]. Wunder and Smith [2] agree. [a work not retrieved in this session] ' +
        'disagrees. [a work not retrieved in this session] too.',
    );
    expect(v.citationsRemoved.map((r) => r.citation)).toEqual([
      '(Nobody, 1999)',
      'Fake et al. (2010)',
    ]);
  });

  it('removes DOIs no retrieved work has, and keeps Markdown links and math', () => {
    const v = verifyReport(
      'See 10.1234/p1 and 10.5555/made.up. A [link](https://doi.org/10.1234/p2). $x_{[1]}$',
      papers,
    );
    expect(v.body).toContain('See 10.1234/p1 and [a work not retrieved in this session].');
    expect(v.body).toContain('[link](https://doi.org/10.1234/p2)');
    expect(v.citationsRemoved.map((r) => r.citation)).toEqual(['10.5555/made.up']);
    expect(verifyReport('Math $x_{[7]}$ and `a[9]`.', papers).body).toBe(
      'Math $x_{[7]}$ and `a[9]`.',
    );
  });

  it("checks the model's reference list entry by entry and rebuilds it from the cited works", () => {
    const v = verifyReport(
      [
        'Intro [2].',
        '',
        '## References',
        '',
        '1. Wunder, S. (2002). Paper number 2 on conservation payments.',
        '2. Invented, A. (2015). A paper that does not exist. https://doi.org/10.9999/fake',
        '3. [7] Someone (2001). Anything.',
        '',
        '## Appendix',
        '',
        'Kept [3].',
      ].join('\n'),
      papers,
    );
    expect(v.referencesRemoved.map((r) => r.reason)).toEqual([
      'no retrieved work has the DOI 10.9999/fake',
      'no work 7 was retrieved in this session',
    ]);
    expect(v.body).toContain('## Appendix');
    expect(v.cited).toEqual([2, 3]);
    expect(v.referencesMarkdown).toBe(
      `## References\n\n- [2] ${referenceLine(papers[1]!)}\n- [3] ${referenceLine(papers[2]!)}\n`,
    );
  });

  it('joins soft line breaks so sentences can be checked and flagged', () => {
    expect(unwrapParagraphs('A long\nsentence [1].\n\n- item\n- item two\n## H\ntext')).toBe(
      'A long sentence [1].\n\n- item\n- item two\n## H\ntext',
    );
    const sentences = citedSentences(
      'Smith et al. show this [1]. No citation here. E.g. this one [2, 3].\n\n## Title [1]',
    );
    expect(sentences).toEqual([
      { sentence: 'Smith et al. show this [1].', works: [1] },
      { sentence: 'E.g. this one [2, 3].', works: [2, 3] },
    ]);
    expect(
      insertFlags('A [1]. B [2].', [
        { sentence: 'B [2].', works: [2], reason: 'Not [in] it', kind: 'unsupported' },
      ]),
    ).toBe('A [1]. B [2]. **[Claim check: not supported by the abstract of work 2. Not in it.]**');
    // A sentence that could not be checked is never called unsupported.
    expect(
      insertFlags('A [1].', [
        { sentence: 'A [1].', works: [1], reason: 'The check gave no verdict.', kind: 'unchecked' },
      ]),
    ).toBe('A [1]. **[Claim check: not checked against work 1. The check gave no verdict.]**');
  });
});

describe('references', () => {
  it('cuts titles to 200 characters and drops lines of 20 characters or fewer', () => {
    const long = 'x'.repeat(250);
    expect(cutTitle(long)).toHaveLength(200);
    const refs = buildReferences([
      paper(1, { title: long }),
      paper(2, { title: 'A', authors: ['B'], year: undefined, doi: undefined, venue: undefined }),
    ]);
    expect(refs.map((r) => r.number)).toEqual([1]);
    expect(refs[0]?.title).toHaveLength(200);
    expect(refs[0]?.line).toContain('https://doi.org/10.1234/p1');
    expect(referenceLine(paper(2, { title: 'A', authors: ['B'], doi: undefined }))).toBe(
      'B (2002). A.',
    );
    // A venue abbreviated with a full stop, a title asking a question: no second stop.
    expect(
      referenceLine(
        paper(3, {
          title: 'Do payments work?',
          authors: ['B'],
          venue: 'J. Mach. Learn. Res.',
          doi: undefined,
          url: undefined,
        }),
      ),
    ).toBe('B (2003). Do payments work? J. Mach. Learn. Res.');
  });
});

describe('gap validation', () => {
  const gap = (text: string, support: number[]): ResearchGap => ({
    gap_description: text,
    opportunity: 'o',
    recommendation: 'r',
    supporting_papers: support,
  });

  it('keeps gaps longer than 10 characters resting on retrieved papers, once', () => {
    const { kept, dropped } = validateGaps(
      [
        gap('A real gap about payments.', [3, 1, 99]),
        gap('Tiny gap.', [1]),
        gap('Gap with no support at all.', [42]),
        gap('A real gap about payments', [2]),
        { ...gap('', [1]), description: 'Gap given in the other field.' },
      ],
      papers,
    );
    expect(kept.map((g) => [g.gap_description, g.supporting_papers])).toEqual([
      ['A real gap about payments.', [1, 3]],
      ['Gap given in the other field.', [1]],
    ]);
    expect(dropped.map((d) => d.reason)).toEqual([
      'its text has 10 characters or fewer',
      'it cites only works that were not retrieved (42)',
      'it repeats another gap',
    ]);
  });
});

describe('feedback constraints read by code', () => {
  it.each([
    ['only after 2010', { fromYear: 2011 }],
    ['since 2015 please', { fromYear: 2015 }],
    ['papers before 2000', { toYear: 1999 }],
    ['between 2005-2015', { fromYear: 2005, toYear: 2015 }],
    ['from 2010 until 2020', { fromYear: 2010, toYear: 2020 }],
    ['the last 5 years', { fromYear: 2025 }],
    ['focus on developing countries', {}],
    ['after 3000', {}],
  ])('%s', (text, expected) => {
    expect(yearsFromFeedback(text, 2030)).toEqual(expected);
  });
});

describe('trends from counts', () => {
  it('compares the last three complete years with the eight before', () => {
    const counts = Array.from({ length: 11 }, (_, i) => ({
      year: 2013 + i,
      count: 2013 + i >= 2021 ? 30 : 10,
    }));
    const g = growthOf(counts, 2023);
    expect(g).toMatchObject({
      growth: 2,
      recentMean: 30,
      baselineMean: 10,
      recentYears: [2021, 2023],
      baselineYears: [2013, 2020],
    });
    expect(growthOf([{ year: 2023, count: 5 }], 2023).growth).toBeNull();
  });

  it('picks frequent subject terms, leaving out broad fields and arXiv codes', () => {
    const w = (keywords: string[]) => ({
      source: 'openalex' as const,
      sources: ['openalex' as const],
      sourceId: 'x',
      title: 't',
      authors: [],
      rank: 0,
      keywords,
    });
    expect(
      candidateTopics([
        w(['Economics', 'cs.LG', 'Payment for ecosystem services', 'Biodiversity']),
        w(['economics', 'cs.LG', 'Payment for ecosystem services']),
        w(['Biodiversity', 'Deforestation']),
      ]),
    ).toEqual(['Biodiversity', 'Payment for ecosystem services']);
  });
});
