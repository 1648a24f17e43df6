import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, webDistDir, type RunningServer } from './harness';
import { newPage } from './support';

/**
 * What the public pages load, read from the build (the Vite manifest, as bench/bundle-size.ts
 * does) and watched in Chromium: no team manifest, editor, chart or math code, and the landing
 * route's JavaScript within its gzip budget.
 *
 * The budget for the landing route is 120 KB (docs/performance.md, "Web bundle per
 * route"): the landing page and the public frame are built without MUI, so the route is React DOM,
 * react-router and the page (about 90 KB). This test fails when it grows past LANDING_BUDGET_KB.
 */
const LANDING_BUDGET_KB = 120;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const distDir = webDistDir();
const manifest = JSON.parse(
  fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'),
) as Manifest;

/** The lazy layouts and page each public route renders (web/router.tsx). */
const PUBLIC_ROUTES: Array<[route: string, chunks: string[]]> = [
  ['/', ['layouts/PublicLayout.tsx', 'pages/public/LandingPage.tsx']],
  ...(
    [
      ['/login', 'LoginPage'],
      ['/register', 'RegisterPage'],
      ['/join-team', 'JoinTeamPage'],
      ['/demo', 'DemoPage'],
    ] as const
  ).map(([route, page]): [string, string[]] => [
    route,
    ['layouts/PublicLayout.tsx', 'layouts/ThemedOutlet.tsx', `pages/public/${page}.tsx`],
  ]),
];

/**
 * Code that belongs to the signed-in app, recognised in a chunk's text: the team manifests (by
 * their route ids, as the manifests and the app's routes spell them), CodeMirror, MUI X Charts
 * and KaTeX.
 */
const TEAM_IDS = fs
  .readdirSync(path.resolve('web/teams'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join('web/teams', d.name, 'manifest.ts')))
  .map((d) => d.name);
const FOREIGN_CODE: Array<[what: string, marker: string]> = [
  ...TEAM_IDS.map((id): [string, string] => [`the ${id} team's manifest`, `route:\`${id}-team\``]),
  ...TEAM_IDS.map((id): [string, string] => [`the ${id} team's manifest`, `route:"${id}-team"`]),
  ['the code editor (CodeMirror)', 'cm-editor'],
  ['charts (MUI X Charts)', 'MuiCharts'],
  ['math (KaTeX)', 'KaTeX'],
];

function entryKey(): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('no entry chunk in the Vite manifest');
  return key;
}

/** The entry and the given chunks with everything they import statically, as file names. */
function staticFiles(keys: string[]): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of [entryKey(), ...keys]) visit(key);
  return [...files].filter((f) => f.endsWith('.js'));
}

const read = (file: string) => fs.readFileSync(path.join(distDir, file), 'utf8');
const gzipKb = (files: string[]) =>
  files.reduce((sum, f) => sum + zlib.gzipSync(read(f), { level: 9 }).length, 0) / 1024;

/** What of FOREIGN_CODE the files contain, as "file: what". */
function foreignCodeIn(files: string[]): string[] {
  return files.flatMap((file) => {
    const text = read(file);
    return FOREIGN_CODE.filter(([, marker]) => text.includes(marker)).map(
      ([what]) => `${file}: ${what}`,
    );
  });
}

describe('public routes in the build', () => {
  it('the markers find what they look for in the app chunks (so their absence means something)', () => {
    const all = Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.js'));
    const found = new Set(foreignCodeIn(all).map((line) => line.split(': ')[1]));
    expect(TEAM_IDS.length).toBeGreaterThanOrEqual(5);
    for (const [what] of FOREIGN_CODE) expect(found, what).toContain(what);
  });

  for (const [route, chunks] of PUBLIC_ROUTES) {
    it(`${route} imports no team manifest, editor, chart or math code`, () => {
      const files = staticFiles(chunks);
      expect(foreignCodeIn(files)).toEqual([]);
      // The signed-in areas' routes are one lazy chunk that no public route imports.
      const appRoutes = manifest['appRoutes.tsx']?.file;
      expect(appRoutes, 'web/appRoutes.tsx is its own chunk').toBeDefined();
      expect(files).not.toContain(appRoutes);
    });
  }

  it(`the landing route is within ${LANDING_BUDGET_KB} KB of gzipped JavaScript`, () => {
    const kb = gzipKb(staticFiles(PUBLIC_ROUTES[0]![1]));
    expect(kb).toBeGreaterThan(50); // React DOM alone is more: the walk found the chunks
    expect(kb).toBeLessThanOrEqual(LANDING_BUDGET_KB);
  });
});

describe('public routes in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('load only the scripts the build says, none of them app code, the landing within budget', async () => {
    for (const [route, chunks] of PUBLIC_ROUTES) {
      const { context, page } = await newPage(browser);
      try {
        const loaded = new Set<string>();
        page.on('response', (response) => {
          const { pathname } = new URL(response.url());
          if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) {
            loaded.add(pathname.slice(1));
          }
        });
        await page.goto(`${server.baseUrl}${route}`);
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        const files = [...loaded].sort();
        expect(files.length, route).toBeGreaterThan(0);
        expect(foreignCodeIn(files), route).toEqual([]);
        // Nothing beyond the static import graph of the route's layouts and page is fetched.
        expect(files, route).toEqual([...staticFiles(chunks)].sort());
        if (route === '/') expect(gzipKb(files)).toBeLessThanOrEqual(LANDING_BUDGET_KB);
      } finally {
        await context.close();
      }
    }
  });
});
