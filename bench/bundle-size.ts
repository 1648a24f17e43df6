/**
 * Per-route JavaScript size of the built web app, gzipped: the entry chunk plus every chunk the
 * route's layouts and page import statically (what the browser must load to show the route).
 * Reads the Vite manifest of a build (npm run build, or WEB_DIST_DIR=...).
 *
 *   npx tsx bench/bundle-size.ts [distDir=dist/web]
 *
 * Budgets: the landing route under 120 KB gzip (performance issue; it was 150 KB before), no
 * route over 350 KB. The public routes must load no team manifest, editor, chart or math code:
 * e2e/bundle-budget.e2e.test.ts checks both after the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const distDir = path.resolve(process.argv[2] ?? process.env.WEB_DIST_DIR ?? 'dist/web');
const manifestFile = path.join(distDir, '.vite', 'manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error(`No Vite manifest at ${manifestFile}: run npm run build first.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;

const gzipCache = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

/** The chunk and everything it imports statically, transitively. */
function closure(key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, into);
  return into;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) throw new Error('no entry chunk in the manifest');

/** The lazy layout chunks a route renders, outermost first, then its page. */
const PUBLIC = ['layouts/PublicLayout.tsx'];
const PUBLIC_THEMED = [...PUBLIC, 'layouts/ThemedOutlet.tsx'];
// The signed-in areas' routes (web/appRoutes.tsx) are one lazy chunk below ThemedOutlet (the MUI
// theme and server state).
const APP = ['layouts/ThemedOutlet.tsx', 'appRoutes.tsx', 'layouts/AppShell.tsx'];
const ADMIN = [
  'layouts/ThemedOutlet.tsx',
  'appRoutes.tsx',
  'layouts/AdminGuard.tsx',
  'layouts/AppShell.tsx',
];
const ROUTES: Array<[route: string, layouts: string[], page: string]> = [
  ['/', PUBLIC, 'pages/public/LandingPage.tsx'],
  ['/login', PUBLIC_THEMED, 'pages/public/LoginPage.tsx'],
  ['/register', PUBLIC_THEMED, 'pages/public/RegisterPage.tsx'],
  ['/join-team', PUBLIC_THEMED, 'pages/public/JoinTeamPage.tsx'],
  ['/demo', PUBLIC_THEMED, 'pages/public/DemoPage.tsx'],
  ['/app', APP, 'pages/app/OverviewPage.tsx'],
  ['/app/project-manager', APP, 'pages/app/ProjectManagerPage.tsx'],
  ['/app/projects/:id', APP, 'pages/app/ProjectPage.tsx'],
  ['/app/data-explorer', APP, 'pages/app/DataExplorerPage.tsx'],
  ['/app/agent-workflow', APP, 'pages/app/AgentWorkflowPage.tsx'],
  ['/app/documentation', APP, 'pages/app/DocumentationPage.tsx'],
  ['/app/settings', APP, 'pages/app/SettingsPage.tsx'],
  ['/admin', ADMIN, 'pages/admin/AdminPage.tsx'],
  // Team screens: the gate (lazy) and the screen its manifest loads.
  ['/app/ideation-team', [...APP, 'teams/TeamGate.tsx'], 'teams/ideation/IdeationTeamPage.tsx'],
  [
    '/app/literature-team',
    [...APP, 'teams/TeamGate.tsx'],
    'teams/literature/LiteratureTeamPage.tsx',
  ],
  ['/app/data-team', [...APP, 'teams/TeamGate.tsx'], 'teams/data/DataTeamPage.tsx'],
  ['/app/model-team', [...APP, 'teams/TeamGate.tsx'], 'teams/model/ModelTeamPage.tsx'],
  ['/app/code-team', [...APP, 'teams/TeamGate.tsx'], 'teams/code/CodeTeamPage.tsx'],
];

const LANDING_GOAL_KB = 120;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const rows: string[] = [];
let overBudget = false;
for (const [route, layouts, pageKey] of ROUTES) {
  const missing = [...layouts, pageKey].filter((key) => !manifest[key]);
  if (missing.length > 0) {
    rows.push(`| ${route} | (chunk ${missing.join(', ')} not found) | | |`);
    overBudget = true;
    continue;
  }
  const files = closure(entryKey);
  for (const layout of layouts) closure(layout, files);
  closure(pageKey, files);
  const js = [...files].filter((f) => f.endsWith('.js'));
  const total = js.reduce((sum, f) => sum + gzipSize(f), 0);
  const budget = route === '/' ? LANDING_GOAL_KB * 1024 : 350 * 1024;
  const ok = total <= budget;
  overBudget ||= !ok;
  rows.push(
    `| ${route} | ${kb(total)} | ${js.length} | ${ok ? 'within' : 'OVER'} ${kb(budget)} KB |`,
  );
}
console.log(`Gzipped JS per route (${distDir})\n`);
console.log('| Route | KB gzip | JS chunks | Budget |');
console.log('| --- | ---: | ---: | --- |');
for (const row of rows) console.log(row);
if (overBudget) process.exitCode = 1;
