import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * The server's entry points bundled once per browser-test run (vitest.e2e.config.ts's
 * globalSetup), so that the forty-odd server and worker processes of the run start from one
 * compiled file instead of having tsx compile and resolve a few hundred TypeScript modules each
 * time: a start costs about a third less CPU (docs/performance.md, CI). The bundle is the same
 * TypeScript through the same compiler (tsx runs esbuild too); packages stay in node_modules.
 *
 * `npm start` and `npm run serve` themselves are still tested as they are (tsx): foundation's
 * tests run them by name.
 */

/** Set by the global setup to the folder holding the bundle; unset: processes run under tsx. */
export const SERVER_BUNDLE_ENV = 'E2E_SERVER_BUNDLE';

/** Each entry point, by the path tests name it with, and its file in the bundle. */
export const BUNDLED_ENTRIES = {
  'server/main.ts': 'main.mjs',
  'server/worker.ts': 'worker.mjs',
  'test/teams/serve-with-test-team.ts': 'serve-with-test-team.mjs',
  'test/teams/worker-with-test-team.ts': 'worker-with-test-team.mjs',
} as const;

export type BundledEntry = keyof typeof BUNDLED_ENTRIES;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * How to run `entry` with node: the bundle when this run has one, else tsx. Source maps are on
 * so that a stack trace in a server's output names the TypeScript file and line.
 */
export function nodeArgsFor(entry: BundledEntry): string[] {
  const dir = process.env[SERVER_BUNDLE_ENV];
  if (dir && fs.existsSync(path.join(dir, BUNDLED_ENTRIES[entry]))) {
    return ['--enable-source-maps', path.join(dir, BUNDLED_ENTRIES[entry])];
  }
  return ['--import', 'tsx', entry];
}

/**
 * Each module keeps its own import.meta.url (the source file's), as under tsx: the server finds
 * its migrations, package.json and the PDF reader's child script next to its sources.
 */
const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/**
 * Bundles the entry points into a new folder under dist/ (inside the project, so the bundle's
 * imports of packages resolve in node_modules) and returns it.
 */
export async function bundleServer(): Promise<string> {
  const dist = path.join(ROOT, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  removeStaleBundles(dist);
  const outdir = fs.mkdtempSync(path.join(dist, 'e2e-server-'));
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(BUNDLED_ENTRIES).map(([entry, file]) => [file.replace(/\.mjs$/, ''), entry]),
    ),
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    plugins: [sourceUrls],
  });
  return outdir;
}

/**
 * A run that was interrupted leaves its bundle behind (5 MB); one a day old belongs to no run
 * still going.
 */
function removeStaleBundles(dist: string): void {
  for (const name of fs.readdirSync(dist)) {
    if (!name.startsWith('e2e-server-')) continue;
    const dir = path.join(dist, name);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > 86_400_000) {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } catch {
      // Removed meanwhile.
    }
  }
}

let bundleDir: string | undefined;

/** Vitest global setup: one bundle for the run's test files, removed at the end. */
export async function setup(): Promise<void> {
  if (process.env.E2E_TSX === '1') return;
  bundleDir = await bundleServer();
  process.env[SERVER_BUNDLE_ENV] = bundleDir;
}

export function teardown(): void {
  if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
}
