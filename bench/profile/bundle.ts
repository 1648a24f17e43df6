/**
 * Builds whole.ts into one JavaScript file that plain Node runs, as a deployment would run a
 * built program rather than have tsx compile and resolve each TypeScript module at start-up:
 *
 *   npx tsx bench/profile/bundle.ts [dir]      writes dist/bench-profile/whole.mjs, prints its path
 *   node dist/bench-profile/whole.mjs ours <file.csv>   (every mode of whole.ts, same arguments)
 *
 * Everything is inlined, packages included (`@duckdb/node-api`'s 124 CommonJS files and zod):
 * resolving and compiling each file cost more start-up CPU than everything else the program
 * loads (docs/performance.md, "Data profiling"). The one exception is `@duckdb/node-bindings`,
 * which picks the platform's native library at run time and stays a package under node_modules.
 * Modules imported only on a path the program does not take (the engine's transforms, zod and
 * the shared contracts behind them) go into chunks of their own that are never read. Both sides of the raw DuckDB comparison (`ours` and `duckdb`) run from the same file; pandas'
 * side runs from Python's compiled bytecode caches, the equivalent for Python.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outdir = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/bench-profile'));

await build({
  absWorkingDir: ROOT,
  entryPoints: ['bench/profile/whole.ts'],
  outdir,
  bundle: true,
  splitting: true,
  outExtension: { '.js': '.mjs' },
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@duckdb/node-bindings'],
  // The inlined CommonJS packages call require() for Node's modules and the native binding;
  // an ES module has no require of its own.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log(path.join(outdir, 'whole.mjs'));
