import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEAM_ENV_END, TEAM_ENV_START, teamEnvVariables } from '../server/agents/kit/env-docs';
import { productTeams } from '../server/agents/teams';

/**
 * README.md is the operator's manual: its configuration table must name every environment
 * variable server/config.ts reads (and no variable it does not), and every command it shows must
 * exist. This keeps the two in step as modules add settings.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The keys of `envSchema = z.object({ ... })` in server/config.ts. */
function configVariables(): string[] {
  const source = read('server/config.ts');
  const start = source.indexOf('const envSchema = z.object({');
  const end = source.indexOf('\n});', start);
  expect(start, 'envSchema not found in server/config.ts').toBeGreaterThan(-1);
  const body = source.slice(start, end);
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

/** The first column of the README's configuration table. */
function readmeVariables(readme: string): string[] {
  return [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((m) => m[1]!);
}

describe('README.md', () => {
  const readme = read('README.md');

  it('starts with the two set-up commands', () => {
    const blocks = [...readme.matchAll(/```sh\n([^`]*?)\n```/g)].map((m) => m[1]);
    expect(blocks.slice(0, 2)).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  it('documents exactly the environment variables the server reads', () => {
    const inConfig = configVariables();
    expect(inConfig.length).toBeGreaterThan(20);
    // The generated block of the teams' variables is checked by the next test.
    const documented = readmeVariables(
      readme.slice(0, readme.indexOf(TEAM_ENV_START)) + readme.slice(readme.indexOf(TEAM_ENV_END)),
    );
    expect(
      inConfig.filter((v) => !documented.includes(v)),
      'missing from README',
    ).toEqual([]);
    expect(
      documented.filter((v) => !inConfig.includes(v)),
      'not read by the server',
    ).toEqual([]);
    expect(new Set(documented).size, 'a variable is listed twice').toBe(documented.length);
  });

  it('shows only npm scripts that exist', () => {
    const scripts = Object.keys(
      (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts,
    );
    const shown = [...readme.matchAll(/npm run ([a-z0-9:-]+)/g)].map((m) => m[1]!);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  it("lists every variable the teams' services declare, as npm run docs:env writes it", () => {
    const start = readme.indexOf(TEAM_ENV_START);
    const end = readme.indexOf(TEAM_ENV_END);
    expect(start, 'README has no generated team variables block').toBeGreaterThan(-1);
    const block = readme.slice(start, end);
    const documented = readmeVariables(block);
    const declared = teamEnvVariables(productTeams);
    expect(documented, 'run npm run docs:env').toEqual(declared.map((v) => v.name));
    // A variable without a description would leave the operator guessing.
    expect(declared.filter((v) => v.description.trim() === '').map((v) => v.name)).toEqual([]);
    // The core table and the teams' table never name the same variable.
    const core = configVariables();
    expect(documented.filter((v) => core.includes(v))).toEqual([]);
  });

  it('links documents that exist', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !fs.existsSync(path.join(ROOT, l)))).toEqual([]);
  });
});
