import { describe, expect, it } from 'vitest';
import { asSentence, plural, teamNoun, withFullStop } from './text';

describe('asSentence', () => {
  it('adds one full stop only where the text has none', () => {
    expect(asSentence('As stated by the uploader.')).toBe('As stated by the uploader.');
    expect(asSentence('CC BY 4.0')).toBe('CC BY 4.0.');
    expect(asSentence('  open data?  ')).toBe('Open data?');
    expect(asSentence('')).toBe('');
  });
});

describe('withFullStop', () => {
  it('ends an entry with one full stop and keeps its first letter as written', () => {
    expect(withFullStop('J. Mach. Learn. Res.')).toBe('J. Mach. Learn. Res.');
    expect(withFullStop('arXiv')).toBe('arXiv.');
    expect(withFullStop('Do minimum wages cost jobs? ')).toBe('Do minimum wages cost jobs?');
    expect(withFullStop(' ')).toBe('');
  });
});

describe('teamNoun', () => {
  it('says "team" once', () => {
    expect(teamNoun('Code')).toBe('Code team');
    expect(teamNoun('Data Team')).toBe('Data Team');
    expect(teamNoun('Literature Review Team ')).toBe('Literature Review Team');
  });
});

describe('plural', () => {
  it('puts the noun in the number of the count', () => {
    expect(plural(1, 'finding')).toBe('1 finding');
    expect(plural(2, 'finding')).toBe('2 findings');
    expect(plural(0, 'test')).toBe('0 tests');
    expect(plural(1, 'query', 'queries')).toBe('1 query');
    expect(plural(3, 'query', 'queries')).toBe('3 queries');
  });
});
