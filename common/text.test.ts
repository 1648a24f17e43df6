import { describe, expect, it } from 'vitest';
import { asSentence, teamNoun, withFullStop } from './text';

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
