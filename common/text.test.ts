import { describe, expect, it } from 'vitest';
import { asSentence } from './text';

describe('asSentence', () => {
  it('adds one full stop only where the text has none', () => {
    expect(asSentence('As stated by the uploader.')).toBe('As stated by the uploader.');
    expect(asSentence('CC BY 4.0')).toBe('CC BY 4.0.');
    expect(asSentence('  open data?  ')).toBe('Open data?');
    expect(asSentence('')).toBe('');
  });
});
