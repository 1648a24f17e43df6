import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseCsvCell } from './csv';

describe('neutraliseCsvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+49 30 1234', "'+49 30 1234"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', "'\rcmd"],
  ])('prefixes a quote to %j', (input, output) => {
    expect(neutraliseCsvCell(input)).toBe(output);
  });

  it.each(['', 'Ada', ' =not first', "'already", 'a=b', 'x@y.example', '1-2'])(
    'leaves %j alone',
    (input) => {
      expect(neutraliseCsvCell(input)).toBe(input);
    },
  );

  it('never returns a cell that starts like a formula, and only ever adds one quote', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = neutraliseCsvCell(s);
        expect(out).not.toMatch(/^[=+\-@\t\r]/);
        expect(out === s || out === `'${s}`).toBe(true);
      }),
    );
  });
});
