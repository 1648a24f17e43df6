import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { makeOwnerOnly } from './owner-only';
import { PreparingPGlite } from './pglite-statements';

export type Schema = typeof schema;
/** One type for both drivers: services never know which database they run on. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** An arbitrary constant that serialises migrations between processes starting together. */
const MIGRATION_LOCK_KEY = 724_311_905;

export type DatabaseHandle =
  | { kind: 'pglite'; db: Database; client: PGlite; close(): Promise<void> }
  | { kind: 'postgres'; db: Database; pool: pg.Pool; url: string; close(): Promise<void> };

export class DataDirInUseError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is one process's database: a second process on the same files (say `npm run admin`
 * while `npm start` runs) would see stale data and its writes would be lost or corrupt the
 * files. A lock file holding the owner's pid refuses that; a lock left by a dead process is
 * taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'pgdata.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && processAlive(owner)) {
        throw new DataDirInUseError(
          `The embedded database in ${dataDir} is in use by another EconAgents process (pid ${owner}). ` +
            'Stop that process first, or use PostgreSQL (DATABASE_URL) to run several processes.',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the embedded database in ${dataDir}`);
}

/**
 * Opens PGlite under `${dataDir}/pgdata`, or in memory when dataDir is 'memory://'. Its `query`
 * keeps each statement prepared under a name (`./pglite-statements.ts`).
 */
export async function openPglite(dataDir: string | 'memory://'): Promise<DatabaseHandle> {
  let client: PGlite;
  let unlock = () => undefined as void;
  if (dataDir === 'memory://') {
    client = new PreparingPGlite();
  } else {
    const dir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    unlock = lockDataDir(dataDir);
    client = new PreparingPGlite(dir);
  }
  try {
    await client.waitReady;
  } catch (err) {
    unlock();
    throw err;
  }
  // PGlite sets modes of its own while it starts (0666 for the files of a new database, 0644 for
  // its caches), whatever the umask: take group and other access away again. Files it creates
  // afterwards follow the process umask (077, set at start).
  if (dataDir !== 'memory://') makeOwnerOnly(path.join(dataDir, 'pgdata'));
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    client,
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

export async function openPostgres(url: string, max = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  await pool.query('select 1');
  return { kind: 'postgres', db, pool, url, close: () => pool.end() };
}

/** Applies the committed migrations; on PostgreSQL under an advisory lock. */
export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(drizzlePglite(handle.client), { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const client = await handle.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

export async function openDatabase(opts: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  const handle = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl)
    : await openPglite(opts.dataDir);
  await applyMigrations(handle);
  return handle;
}

export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
