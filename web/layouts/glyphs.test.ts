import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLYPHS, type GlyphName } from './glyphs';

/** The path data an @mui/icons-material module draws, read from the installed package. */
function muiPaths(name: string): string[] {
  const file = path.resolve('node_modules/@mui/icons-material', `${name}.js`);
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/\bd: "([^"]+)"/g)].map((m) => m[1]!);
}

describe('glyphs', () => {
  for (const name of Object.keys(GLYPHS) as GlyphName[]) {
    it(`${name} is the path @mui/icons-material draws`, () => {
      const expected = muiPaths(name);
      expect(expected.length).toBeGreaterThan(0);
      expect([...GLYPHS[name]]).toEqual(expected);
    });
  }
});
