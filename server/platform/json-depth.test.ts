import { describe, expect, it } from 'vitest';
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth';
import { containsNul } from './text-input';

const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('jsonTooDeep', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep('{"a":'.repeat(3) + '1' + '}'.repeat(3), 2)).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ a: '[[[[[[' }), 1)).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ a: 'quote \\" then [[[[' }), 1)).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ a: '\\\\' }) + '[[', 1)).toBe(true);
    expect(jsonTooDeep('"just a string"')).toBe(false);
    expect(jsonTooDeep(nest(1_000_000))).toBe(true);
  });
});

describe('containsNul', () => {
  it('finds NUL in values and keys at any depth without recursion', () => {
    let deep: unknown = 'a\u0000b';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(containsNul(deep)).toBe(true);
    let clean: unknown = 'ab';
    for (let i = 0; i < 200_000; i++) clean = { k: clean };
    expect(containsNul(clean)).toBe(false);
    expect(containsNul({ 'k\u0000': 1 })).toBe(true);
    expect(containsNul(Buffer.from('a\u0000'))).toBe(false);
  });
});
