import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { applyMigrations, MIGRATIONS_DIR, openPglite } from '../server/db/connect';
import { nodeArgsFor } from './server-bundle.helpers';
import { E2E_ADMIN } from './support';

/**
 * Browser and process tests run the real server (server/main.ts, what `npm run serve` and, after
 * its build, `npm start` run; bundled once per run, see server-bundle.helpers.ts) on a free port
 * with a fresh data directory, and drive Debian's Chromium.
 *
 * The web app is served from E2E_WEB_DIST_DIR, else WEB_DIST_DIR, else dist/web (what
 * `npm run build` writes). Helpers building in parallel point E2E_WEB_DIST_DIR at their own build.
 * Data directories the harness makes are removed by a later run (see newDataDir).
 *
 * Everything else a test needs (API calls, sign-in, accounts, screenshots, axe) is in support.ts;
 * the names below re-export it for the tests written against this file.
 */
export {
  E2E_ADMIN,
  seriousA11yViolations,
  settleAnimations,
  signIn as apiLogin,
  type AxeViolation,
} from './support';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm run serve` runs, as it runs it (tsx): for the tests of that command itself. */
export const NPM_RUN_SERVE_COMMAND: readonly string[] = [
  process.execPath,
  '--import',
  'tsx',
  'server/main.ts',
];

/**
 * The server as `npm run serve` starts it, in one process so that signals reach the server
 * itself; from the run's server bundle when there is one (see server-bundle.helpers.ts), else
 * under tsx.
 */
export const SERVE_COMMAND: readonly string[] = [
  process.execPath,
  ...nodeArgsFor('server/main.ts'),
];

/** The same, with the runtime's internal test team registered (tests only). */
export const SERVE_WITH_TEST_TEAM_COMMAND: readonly string[] = [
  process.execPath,
  ...nodeArgsFor('test/teams/serve-with-test-team.ts'),
];

/** Where the built web app is read from (see the note at the top). */
export function webDistDir(): string {
  return path.resolve(
    ROOT,
    process.env.E2E_WEB_DIST_DIR ?? process.env.WEB_DIST_DIR ?? path.join('dist', 'web'),
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() =>
        typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port')),
      );
    });
  });
}

/** True while something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  /** Everything the process printed (stdout and stderr), over all (re)starts. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Milliseconds from spawning the last (re)start until /api/health answered 200. */
  startupMs(): number;
  /** Sends SIGTERM (or `signal`), waits for the exit; SIGKILLs the process group after 15 s. */
  stop(signal?: NodeJS.Signals): Promise<ExitInfo>;
  /** Stops and starts it again on the same port and data directory. */
  restart(): Promise<void>;
}

export interface StartServerOptions {
  /** Added to (and overriding) the defaults below; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /**
   * Default: a new temporary directory holding a copy of an already migrated, empty embedded
   * database (see migratedPgdata). Pass an empty directory to test a truly first start.
   */
  dataDir?: string;
  /** What to run in the project root; default SERVE_COMMAND. E.g. ['npm', 'start']. */
  command?: readonly string[];
  /** How long to wait for /api/health; default 120 s (a command that builds first needs more). */
  timeoutMs?: number;
}

let pgdataTemplate: Promise<string> | undefined;

/**
 * A PGlite data directory with every migration applied and no rows, to copy into each server's
 * fresh DATA_DIR. Creating a database from scratch (initdb in WebAssembly) costs several seconds
 * of CPU per server; a copy costs milliseconds. Cached in the temp directory under a hash of the
 * migrations and the PGlite version, so it is rebuilt whenever either changes.
 */
export function migratedPgdata(): Promise<string> {
  pgdataTemplate ??= (async () => {
    const hash = crypto.createHash('sha256');
    const pglite = path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json');
    hash.update(fs.readFileSync(pglite));
    for (const file of fs.readdirSync(MIGRATIONS_DIR).sort()) {
      if (file.endsWith('.sql'))
        hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS_DIR, file)));
    }
    const dir = path.join(os.tmpdir(), `ea-e2e-pgdata-${hash.digest('hex').slice(0, 16)}`);
    if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-e2e-pgdata-build-'));
    const handle = await openPglite(work);
    await applyMigrations(handle);
    await handle.close();
    try {
      // Atomic: a parallel test file that finished first keeps its copy, and ours is dropped.
      fs.renameSync(path.join(work, 'pgdata'), dir);
    } catch {
      if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`could not create ${dir}`);
    }
    fs.rmSync(work, { recursive: true, force: true });
    return dir;
  })();
  return pgdataTemplate;
}

/** Processes this file started and has not seen exit: killed if the test process ends first. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

const RUN_DIR_PREFIX = 'ea-e2e-run-';
let runDir: string | undefined;

/**
 * The data directories of one test process live in one folder named after its pid (each holds a
 * ~40 MB database). Test workers are not always given the chance to clean up when they end, so
 * each new run removes the folders of processes that no longer exist. E2E_KEEP_DATA keeps them,
 * to look at one after a failure.
 */
function newDataDir(): string {
  if (runDir === undefined) {
    if (!process.env.E2E_KEEP_DATA) removeDeadRunDirs();
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), `${RUN_DIR_PREFIX}${process.pid}-`));
  }
  return fs.mkdtempSync(path.join(runDir, 'data-'));
}

function removeDeadRunDirs(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(RUN_DIR_PREFIX)) continue;
    const pid = Number(name.slice(RUN_DIR_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Signals the child's whole process group (it is spawned detached, so it leads one). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  let dataDir = opts.dataDir;
  if (dataDir === undefined) {
    dataDir = newDataDir();
    fs.cpSync(await migratedPgdata(), path.join(dataDir, 'pgdata'), { recursive: true });
  }
  const port = await freePort();
  const command = opts.command ?? SERVE_COMMAND;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  // A clean environment: nothing from the developer's shell (DATABASE_URL, LLM keys) leaks in.
  const merged: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDistDir(),
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000',
    ...opts.env,
  };
  const env = Object.fromEntries(
    Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<ExitInfo> = Promise.resolve({ code: null, signal: null });
  let stdout = '';
  let stderr = '';
  let out = '';
  let startupMs = 0;

  async function launch(): Promise<void> {
    const [file, ...args] = command;
    if (!file) throw new Error('startServer: empty command');
    const started = performance.now();
    const c = spawn(file, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = c;
    live.add(c);
    exited = new Promise((resolve) => {
      c.once('exit', (code, signal) => {
        live.delete(c);
        resolve({ code, signal });
      });
    });
    c.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      out += d.toString();
    });
    c.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      out += d.toString();
    });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (c.exitCode !== null || c.signalCode !== null) {
        throw new Error(`${command.join(' ')} exited (${c.exitCode ?? c.signalCode}):\n${out}`);
      }
      try {
        const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) {
          startupMs = performance.now() - started;
          return;
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    killGroup(c, 'SIGKILL');
    throw new Error(`${command.join(' ')} did not become healthy in ${timeoutMs} ms:\n${out}`);
  }

  async function stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<ExitInfo> {
    const c = child;
    if (!c) return { code: null, signal: null };
    if (c.exitCode === null && c.signalCode === null) {
      // Only the top process gets the signal, as from a supervisor; the group is killed only
      // if it does not end by itself.
      const kill = setTimeout(() => killGroup(c, 'SIGKILL'), 15_000);
      c.kill(signal);
      const info = await exited;
      clearTimeout(kill);
      return info;
    }
    return exited;
  }

  await launch();
  return {
    baseUrl,
    port,
    dataDir,
    env,
    output: () => out,
    stdout: () => stdout,
    stderr: () => stderr,
    startupMs: () => startupMs,
    stop,
    async restart() {
      await stop();
      await launch();
    },
  };
}

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium (playwright-core downloads no browser); each launch gets a fresh profile. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
}
