import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

/** The custom properties each rule of theme.css sets, by selector. */
function cssVariables(): Map<string, Map<string, string>> {
  const css = fs
    .readFileSync(path.resolve('web/theme.css'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '');
  const rules = new Map<string, Map<string, string>>();
  for (const [, selector, body] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const vars = new Map<string, string>();
    for (const [, name, value] of body!.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) {
      vars.set(name!, value!);
    }
    if (vars.size > 0) rules.set(selector!.replace(/\s+/g, ' ').trim(), vars);
  }
  return rules;
}

/** What MUI sets for the theme, by selector (':root', ':root, .light', '.dark'). */
function muiVariables(): Map<string, Record<string, unknown>> {
  const sheets = (
    theme as unknown as {
      generateStyleSheets: () => Array<Record<string, Record<string, unknown>>>;
    }
  ).generateStyleSheets();
  const bySelector = new Map<string, Record<string, unknown>>();
  for (const sheet of sheets) {
    for (const [selector, decls] of Object.entries(sheet)) {
      bySelector.set(selector, { ...bySelector.get(selector), ...decls });
    }
  }
  return bySelector;
}

const norm = (v: unknown) => String(v).replace(/\s+/g, '');

describe('theme.css', () => {
  it('sets each variable to the value MUI generates from web/theme.ts, in both schemes', () => {
    const ours = cssVariables();
    const mui = muiVariables();
    expect([...ours.keys()].sort()).toEqual(['.dark', ':root', ':root, .light']);
    let checked = 0;
    for (const [selector, vars] of ours) {
      // MUI puts the scheme-independent variables on :root and the light ones on ':root, .light'.
      const expected = { ...mui.get(':root'), ...mui.get(selector) };
      for (const [name, value] of vars) {
        expect(expected[name], `${selector} ${name}`).toBeDefined();
        expect(norm(value), `${selector} ${name}`).toBe(norm(expected[name]));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('defines the same variables for the light and the dark scheme', () => {
    const ours = cssVariables();
    const light = [...(ours.get(':root, .light')?.keys() ?? [])].sort();
    const dark = [...(ours.get('.dark')?.keys() ?? [])].filter((n) => n !== '--mui-overlays-8');
    expect(dark.sort()).toEqual(light);
  });
});
