import { describe, expect, it } from 'vitest';
import { checkText, formatFindings } from '../e2e/words.check';

/** The words check of e2e/words.e2e.test.ts: each rule catches its case and lets prose through. */

const rules = (text: string, allow?: string[]) =>
  checkText(text, 'here', allow ? { allow } : {}).map((f) => f.rule);

describe('words check', () => {
  it.each([
    ['Code Team team finished', '"Team team"'],
    ['Attempt 1: changed the none', '"the none"'],
    ['Error starting LiteratureTeam: no model', 'an internal class name'],
    ['The DataTeam is busy', 'an internal class name'],
    ['Licence: As stated by the uploader..', 'doubled punctuation'],
    ['Which one,, then', 'doubled punctuation'],
    ['Really??', 'doubled punctuation'],
    ['Mean: undefined', '"undefined"'],
    ['Year: null', '"null"'],
    ['Growth NaN%', '"NaN"'],
    ['Source: [object Object]', '"[object Object]"'],
    ['Review: 1 finding(s); score 9.5', 'a "(s)" plural'],
    ['Left out 2 empty column(s)', 'a "(s)" plural'],
    ['Checkpoint 1 (Checkpoint 1: Items Review) is waiting', 'a checkpoint named twice'],
    ['JEL codes: import numpy as np', 'code in a metadata field'],
    ['JEL: x = 3', 'code in a metadata field'],
    ['JEL codes: print(x)', 'code in a metadata field'],
    ['Licence: def f(x): return x', 'code in a metadata field'],
    ['The run of mean_wage failed', 'an identifier (mean_wage)'],
    ['Set maxCacheSize first', 'an identifier (maxCacheSize)'],
  ])('flags %j as %s', (text, rule) => {
    expect(rules(text)).toContain(rule);
  });

  it.each([
    'Licence: As stated by the uploader.',
    'Searching...',
    'Loading…',
    'See https://example.org/a..b/c_d?x=1,,2 for more.',
    'Read ../data/file.csv and wooldridge_mroz.csv (97.7 KB)',
    'Write to ana_lyst@e2e.example',
    'DOI 10.1016/j.jdeveco_2010.05.002 was resolved.',
    'We reject the null hypothesis; null results are reported too.',
    'JEL codes: Q57 Ecological Economics, O13',
    'Keywords: payments for ecosystem services, poverty (rural)',
    'Authors: Wunder, S. (2008)',
    'Code Team: tests passed.',
    'Attempt 1: the model changed the code, fixed',
    'Run `mean_wage(x)` on your data.',
    '```python\nimport numpy as np\ntotal = a_b..c\n```\nThe program ran.',
    'Analysis completed on “regional_panel” (18 rows).',
    'Read as missing when the file was loaded: (empty cell), "NA", "NaN", "null", ".", "-".',
    'Saved the model as econagents_nk.mod.',
    'Only public http(s) addresses are fetched.',
    'Choose the column(s) that identify each series.',
    'Review: 1 finding; 2 tests failed.',
    'Checkpoint 1: Items Review is waiting for your feedback.',
  ])('lets %j through', (text) => {
    expect(checkText(text, 'here')).toEqual([]);
  });

  it('checks a quoted value only for the words that are never a value', () => {
    expect(rules('Saved “Code Team team”')).toEqual(['"Team team"']);
    expect(rules('Mean: NaN, "NaN" read as missing')).toEqual(['"NaN"']);
  });

  it('allows the column names it is given, and no others', () => {
    expect(rules('Mean of gdp_usd: 3.4', ['gdp_usd'])).toEqual([]);
    expect(rules('Mean of gdp_usd and log_pop', ['gdp_usd'])).toEqual(['an identifier (log_pop)']);
  });

  it('reports each offending line with where it was found', () => {
    const findings = checkText('Fine.\nCode Team team\nAlso fine.', 'Code / tab Tests (1440 px)');
    expect(formatFindings(findings)).toBe(
      'Code / tab Tests (1440 px): "Team team": "Code Team team"',
    );
  });
});

describe('words check of code and mathematics', () => {
  it('leaves out Markdown mathematics', () => {
    expect(checkText('Output $y_t$ falls when $$i_t = \\phi_pi \\pi_t$$ rises.', 'here')).toEqual(
      [],
    );
  });

  it('checks code only for the words that are never a program', () => {
    const code = 'total_wage = mean_wage(x)  # ok..\nprint("Code Team team")';
    expect(checkText(code, 'here', { kind: 'code' }).map((f) => f.rule)).toEqual(['"Team team"']);
  });
});
