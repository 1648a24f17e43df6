import { describe, expect, it } from 'vitest';
import { gateCitations, type CitableWork } from './citation-gate';

const smith: CitableWork = {
  title: 'Wages and Output over the Cycle',
  authors: ['Ada Smith', 'Bo Lee'],
  year: 2019,
  doi: '10.1234/example.2019',
};
const numbered: CitableWork[] = [
  { ...smith, number: 1 },
  { title: 'Prices and Money', authors: ['Cy Park'], year: 2020, number: 2 },
];
const FABRICATED =
  'Fabricated, A. (2031). Invented results on everything. Journal of Nothing. doi 10.9999/fabricated.2031';

describe('gateCitations', () => {
  it('removes a fabricated reference written as an entry and keeps a recorded work', () => {
    const text = [
      'Wages follow output (Smith and Lee, 2019).',
      '',
      FABRICATED,
      '',
      'The cycle matters.',
    ].join('\n');
    const gated = gateCitations(text, [smith]);
    expect(gated.text).toBe('Wages follow output (Smith and Lee, 2019).\n\nThe cycle matters.');
    expect(gated.removed).toHaveLength(1);
    expect(gated.removed[0]!.citation).toContain('Fabricated, A. (2031)');
    expect(gated.removed[0]!.reason).toBe('no retrieved work has the DOI 10.9999/fabricated.2031');
  });

  it('removes a fabricated reference inside prose: its author-year and its DOI', () => {
    const gated = gateCitations(
      `As Fabricated, A. (2031) shows (doi: 10.9999/fabricated.2031), wages rise; Smith et al. (2019) agree.`,
      [smith],
    );
    expect(gated.text).not.toMatch(/Fabricated|10\.9999|2031/);
    // The narrative citation leaves a note, not a hole; the DOI in parentheses goes with them.
    expect(gated.text).toBe(
      'As [a work not retrieved in this session] shows, wages rise; Smith et al. (2019) agree.',
    );
    expect(gated.removed.map((r) => r.citation)).toEqual([
      'Fabricated, A. (2031)',
      'doi: 10.9999/fabricated.2031',
    ]);
  });

  it('leaves nothing of a text that was only unretrieved references', () => {
    const gated = gateCitations('Fabricated (2031); doi 10.9999/fabricated.2031.', [smith]);
    expect(gated.text).toBe('');
    expect(gated.removed).toHaveLength(2);
  });

  it('keeps recorded DOIs and removes unknown ones', () => {
    const gated = gateCitations(
      'See https://doi.org/10.1234/EXAMPLE.2019 and https://doi.org/10.5555/other.1.',
      [smith],
    );
    // Part of the sentence: the reader is told, so the sentence keeps its shape.
    expect(gated.text).toBe(
      'See https://doi.org/10.1234/EXAMPLE.2019 and [a work not retrieved in this session].',
    );
    expect(gated.removed).toEqual([
      { citation: 'https://doi.org/10.5555/other.1', reason: 'no retrieved work has this DOI' },
    ]);
  });

  it('checks each entry of a group of author-year citations', () => {
    const gated = gateCitations('Known (Smith 2019; Jones 2018; see Park 2020).', numbered);
    expect(gated.text).toBe('Known (Smith 2019; see Park 2020).');
    expect(gated.removed.map((r) => r.citation)).toEqual(['Jones 2018']);
  });

  it('removes numbered citations to numbers no recorded work carries', () => {
    const gated = gateCitations('Shown in [1, 7] and [9]; x[1] is an index.', numbered);
    expect(gated.text).toBe('Shown in [1] and; x[1] is an index.');
    expect(gated.removed.map((r) => r.citation)).toEqual(['[7]', '[9]']);
    expect(gated.removed[0]!.reason).toContain('the retrieved set is 1-2');
  });

  it('checks a reference list line by line and drops its heading when nothing is left', () => {
    const text = [
      '# Theory',
      'Text.',
      '',
      '## References',
      '- Smith, A. and Lee, B. (2019). Wages and Output over the Cycle.',
      `- ${FABRICATED}`,
      '',
      '## Next',
      'More.',
    ].join('\n');
    const gated = gateCitations(text, [smith]);
    expect(gated.text).toContain(
      '- Smith, A. and Lee, B. (2019). Wages and Output over the Cycle.',
    );
    expect(gated.text).not.toContain('Fabricated');
    expect(gated.text).toContain('## Next\nMore.');

    const none = gateCitations(text, []);
    expect(none.text).not.toContain('## References');
    expect(none.text).not.toContain('Smith');
    expect(none.removed).toHaveLength(2);
  });

  it('leaves code and mathematics alone and changes nothing without references', () => {
    const text = 'Use `x[3]` and $a_{[2]}$ here.\n\n```\nFoo (Bar, 2001)\n```';
    expect(gateCitations(text, [])).toEqual({ text, removed: [], checked: 0 });
    const plain = 'Output grew 2.1% in 2019 and wages followed.';
    expect(gateCitations(plain, []).text).toBe(plain);
  });

  it("leaves R's printed vectors alone but checks numbered reference entries", () => {
    const r = '[1] 0.53 1.20\n[1] 2019 2020';
    expect(gateCitations(r, [])).toEqual({ text: r, removed: [], checked: 0 });
    const entry = '[3] Fabricated, A. Invented results. 2031.';
    const gated = gateCitations(`Intro.\n${entry}`, numbered);
    expect(gated.text).toBe('Intro.');
    expect(gated.removed).toEqual([
      { citation: entry, reason: 'no work 3 was retrieved in this session' },
    ]);
  });

  it('reads authors written "Family, Given" as well as "Given Family"', () => {
    const work: CitableWork = { title: 'T', authors: ['Smith, Ada'], year: 2019 };
    expect(gateCitations('As (Smith, 2019) shows.', [work]).removed).toEqual([]);
    expect(gateCitations('As (Ada, 2019) shows.', [work]).removed).toHaveLength(1);
  });
});
