import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL server of a test's own: a fresh cluster (initdb) in a temporary directory, on a
 * free port, that the test may stop and start again (a real restart: every connection refused
 * while it is down, the server's processes new afterwards) without touching the shared server
 * the other test files use at the same time. Built from the Debian package's programs
 * (/usr/lib/postgresql/<version>/bin); when the tests run as root, the server runs as the
 * `postgres` user, as PostgreSQL refuses to run as root.
 */

/** The directory of initdb and postgres, or null when PostgreSQL's server programs are absent. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** Why a private server cannot be made here, or null. */
export const privatePostgresMissing: string | null = postgresBinDir()
  ? null
  : "PostgreSQL's server programs (initdb, postgres) are not installed";

export interface PrivatePostgres {
  /** A connection string to the server's `postgres` database as its superuser. */
  url: string;
  /** Stops the server (fast shutdown: open connections are ended) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

/** The user the server runs as: `postgres` when we are root, else ourselves. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

export async function startPrivatePostgres(port: number): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(privatePostgresMissing!);
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-pg-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data, { mode: 0o700 });
  if (user) {
    fs.chownSync(dir, user.uid, user.gid);
    fs.chownSync(data, user.uid, user.gid);
  }
  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    { stdio: 'pipe', ...user },
  );

  let server: ChildProcess | undefined;
  let output = '';
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  async function start(): Promise<void> {
    output = '';
    const child = spawn(
      path.join(bin!, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], ...user },
    );
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    server = child;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`postgres exited:\n${output}`);
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query('select 1');
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`postgres did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  async function stop(): Promise<void> {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT'); // PostgreSQL's fast shutdown
    await exited;
  }

  await start();
  return {
    url,
    start,
    stop,
    async destroy() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
