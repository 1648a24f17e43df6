import path from 'node:path';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules of `.dependency-cruiser.cjs` (what `npm run deps` checks) run on
 * test/fixtures/boundaries/ as if it were the repository root: every deliberate violation there
 * must be reported, and the allowed imports beside them must not be.
 */
const root = path.resolve(import.meta.dirname, '..');
const fixtures = 'test/fixtures/boundaries';

let options: ICruiseOptions;
let violations: IViolation[];

/** "rule: from -> to" for each violation, paths relative to the fixture root. */
function found(): string[] {
  return violations.map((v) =>
    v.cycle
      ? `${v.rule.name}: ${[v.from, ...v.cycle.map((step) => step.name)].join(' -> ')}`
      : `${v.rule.name}: ${v.from} -> ${v.to}`,
  );
}

beforeAll(async () => {
  options = await extractDepcruiseOptions(path.join(root, '.dependency-cruiser.cjs'));
  const result = await cruise(['common', 'server', 'web', 'test'], {
    ...options,
    validate: true,
    baseDir: path.join(root, fixtures),
    // The real config excludes this folder; here it is the root, so nothing is excluded.
    exclude: undefined,
    tsConfig: undefined,
  });
  if (typeof result.output === 'string') throw new Error('expected a JSON cruise result');
  violations = result.output.summary.violations;
});

describe('dependency boundaries', () => {
  it('reports a web file importing server code', () => {
    expect(found()).toContain('web-not-to-server: web/pages/Page.ts -> server/platform/thing.ts');
  });

  it('reports common/ importing server code', () => {
    expect(found()).toContain(
      'common-not-to-server-or-web: common/leaks.ts -> server/platform/thing.ts',
    );
  });

  it('reports an import cycle closed by a type-only import', () => {
    const cycles = found().filter((line) => line.startsWith('no-circular:'));
    expect(cycles.length).toBeGreaterThan(0);
    for (const line of cycles) {
      expect(line).toMatch(/server\/cycle\/a\.ts/);
      expect(line).toMatch(/server\/cycle\/b\.ts/);
    }
  });

  it('reports a routes file importing the database and drizzle-orm, not its store', () => {
    const lines = found().filter((line) => line.startsWith('routes-not-to-database:'));
    expect(lines).toContain(
      'routes-not-to-database: server/modules/demo/routes.ts -> server/db/connect.ts',
    );
    expect(lines.some((line) => /node_modules\/drizzle-orm\//.test(line))).toBe(true);
    expect(lines.some((line) => line.endsWith('store.ts'))).toBe(false);
  });

  it('reports a team importing another team on each side, never its own folder or shared/', () => {
    expect(found()).toContain(
      'server-team-not-to-other-team: server/agents/teams/alpha/phases.ts -> server/agents/teams/beta/contract.ts',
    );
    expect(found()).toContain(
      'web-team-not-to-other-team: web/teams/alpha/Screen.ts -> web/teams/beta/manifest.ts',
    );
    expect(found()).toContain(
      'common-team-not-to-other-team: common/teams/alpha.ts -> common/teams/beta.ts',
    );
    const teamLines = found().filter((line) => /team-not-to-other-team/.test(line));
    expect(teamLines.filter((line) => /shared|prompts/.test(line))).toEqual([]);
  });

  it('reports a team reaching the runtime or the model layer past the kit, not the kit', () => {
    const lines = found().filter((line) => line.startsWith('team-runtime-only-through-kit:'));
    expect(lines.sort()).toEqual([
      'team-runtime-only-through-kit: server/agents/teams/alpha/phases.ts -> server/agents/llm/model.ts',
      'team-runtime-only-through-kit: server/agents/teams/alpha/phases.ts -> server/agents/runtime/store.ts',
    ]);
  });

  it("reports a team's code importing the database, but not its tests", () => {
    const lines = found().filter((line) => line.startsWith('team-not-to-data-layer:'));
    expect(lines).toEqual([
      'team-not-to-data-layer: server/agents/teams/alpha/phases.ts -> server/db/connect.ts',
    ]);
  });

  it('reports engines, connectors and modules importing the agents, not platform/', () => {
    expect(found()).toContain(
      'engines-sources-not-to-agents: server/engines/calc/service.ts -> server/agents/kit/index.ts',
    );
    expect(found()).toContain(
      'engines-sources-not-to-agents: server/sources/feed.ts -> server/agents/runtime/store.ts',
    );
    expect(found()).toContain(
      'modules-not-to-agents: server/modules/demo/status.ts -> server/agents/llm/model.ts',
    );
    expect(found().filter((line) => /-> server\/platform\//.test(line))).not.toContainEqual(
      expect.stringMatching(/^(engines-sources-not-to-agents|modules-not-to-agents):/),
    );
  });

  it('reports the database importing code above it, not its own files', () => {
    const lines = found().filter((line) => line.startsWith('db-not-above:'));
    expect(lines).toEqual(['db-not-above: server/db/schema.ts -> server/platform/thing.ts']);
  });

  it('reports server code importing a test helper', () => {
    expect(found()).toContain(
      'server-not-to-tests: server/platform/uses-test.ts -> test/helpers.ts',
    );
  });

  it('reports nothing beyond the deliberate violations', () => {
    expect(violations).toHaveLength(16);
  });

  it('keeps the fixtures out of the real scan', () => {
    const exclude = options.exclude;
    const excludePath =
      typeof exclude === 'object' && !Array.isArray(exclude) ? exclude.path : exclude;
    const patterns = [excludePath ?? []].flat();
    expect(patterns.some((p) => new RegExp(p).test(`${fixtures}/web/pages/Page.ts`))).toBe(true);
  });
});
