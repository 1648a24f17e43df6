import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseOrUndefined, readPhaseResults } from './phaseResults';

const count = z.object({ n: z.number() });
const label = z.object({ text: z.string() });

describe('readPhaseResults', () => {
  it('reads each phase by its number and schema', () => {
    const read = readPhaseResults({ 1: { n: 3 }, 2: { text: 'ok' } }, {
      first: [1, count],
      second: [2, label],
    } as const);
    expect(read).toEqual({ first: { n: 3 }, second: { text: 'ok' } });
  });

  it('leaves out phases that are missing or of another shape', () => {
    const read = readPhaseResults({ 1: { n: 'three' } }, {
      first: [1, count],
      second: [2, label],
    } as const);
    expect(read.first).toBeUndefined();
    expect(read.second).toBeUndefined();
  });
});

describe('parseOrUndefined', () => {
  it('returns the parsed value or undefined', () => {
    expect(parseOrUndefined(count, { n: 1, extra: true })).toEqual({ n: 1 });
    expect(parseOrUndefined(count, null)).toBeUndefined();
    expect(parseOrUndefined(count, undefined)).toBeUndefined();
  });
});
