import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import {
  applyMigrations,
  MIGRATIONS_DIR,
  openPostgres,
  type Database,
  type DatabaseHandle,
} from '../server/db/connect';
import { PreparingPGlite } from '../server/db/pglite-statements';
import * as schema from '../server/db/schema';

/**
 * A fresh, migrated database for one test: in-memory PGlite, or (TEST_DB=postgres) a new
 * database on TEST_DATABASE_URL's server that is dropped on close.
 *
 * Speed: starting an empty PGlite runs initdb inside WebAssembly (seconds of CPU). Instead the
 * first caller migrates one database and saves its data directory as a tarball under the system
 * temporary directory, keyed by the migrations and the PGlite version; every later database,
 * in any worker or run, starts from that tarball. On PostgreSQL the same idea uses a migrated
 * template database and CREATE DATABASE ... TEMPLATE.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  return process.env.TEST_DB === 'postgres' ? createPostgresDatabase() : createPgliteDatabase();
}

const require = createRequire(import.meta.url);
const TEMPLATE_DIR = path.join(os.tmpdir(), 'econagents-test-templates');
/** Part of the key: change it when the way a template is built changes. */
const TEMPLATE_RECIPE = 'v2: 1 MB WAL segments, no template databases';

/** Changes whenever a migration or the database engine changes, so a stale template is unused. */
function templateKey(): string {
  const hash = crypto.createHash('sha256');
  hash.update(`${TEMPLATE_RECIPE}\n`);
  // The package does not export its package.json; find it next to its entry point.
  const pgliteDir = path.resolve(path.dirname(require.resolve('@electric-sql/pglite')), '..');
  hash.update(fs.readFileSync(path.join(pgliteDir, 'package.json')));
  const walk = (dir: string): void => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(`${path.relative(MIGRATIONS_DIR, full)}\n`).update(fs.readFileSync(full));
    }
  };
  walk(MIGRATIONS_DIR);
  hash.update(fs.readFileSync(require.resolve('pg-boss/package.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Creates the job queue's schema (pg-boss) in the template, as every app start would: half a
 * second of CPU saved per test. Only a speed-up: if it fails the app creates the schema itself.
 */
async function prepareJobQueue(handle: DatabaseHandle): Promise<void> {
  try {
    const { createPhaseQueue } = await import('../server/agents/runtime/queue');
    const queue = await createPhaseQueue({
      database: handle,
      log: pino({ level: 'silent' }) as FastifyBaseLogger,
      jobExpireSeconds: 60,
      supervise: false,
    });
    await queue.stop();
  } catch {
    // The app will do it.
  }
}

// ---------------------------------------------------------------- PGlite

let pgliteTemplate: Promise<Buffer> | undefined;

async function createPgliteDatabase(): Promise<DatabaseHandle> {
  pgliteTemplate ??= loadOrBuildPgliteTemplate();
  const tarball = await pgliteTemplate;
  // As the server opens it (server/db/connect.ts): statements kept prepared.
  const client = new PreparingPGlite({ loadDataDir: new Blob([new Uint8Array(tarball)]) });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  // Migrations are already in the template; applying them again only checks the journal, and
  // keeps this correct should the template ever lag behind.
  const handle: DatabaseHandle = { kind: 'pglite', db, client, close: () => client.close() };
  await applyMigrations(handle);
  return handle;
}

async function loadOrBuildPgliteTemplate(): Promise<Buffer> {
  const file = path.join(TEMPLATE_DIR, `pglite-${templateKey()}.tar`);
  const cached = readIfExists(file);
  if (cached) return cached;
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
  // One builder at a time; the others wait for its file (a stale lock is taken over).
  const lock = `${file}.lock`;
  const deadline = Date.now() + 120_000;
  while (!tryLock(lock)) {
    const ready = readIfExists(file);
    if (ready) return ready;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    const again = readIfExists(file);
    if (again) return again;
    const client = new PGlite({ initDbStartParams: ['--wal-segsize=1'] });
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    const handle: DatabaseHandle = { kind: 'pglite', db, client, close: () => client.close() };
    await applyMigrations(handle);
    await prepareJobQueue(handle);
    // Loading costs time in proportion to the tarball: 1 MB WAL segments instead of 16, and
    // without template0/template1 (nothing in a test creates a database) it is 15 MB, not 41.
    await client.exec(
      `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
    );
    await client.exec('drop database template0');
    await client.exec('drop database template1');
    await client.exec('checkpoint');
    const dump = await client.dumpDataDir('none');
    await client.close();
    const tarball = Buffer.from(await dump.arrayBuffer());
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, tarball);
    fs.renameSync(tmp, file);
    removeOtherTemplates(file);
    return tarball;
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function tryLock(lock: string): boolean {
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > 120_000) fs.rmSync(lock, { force: true });
    } catch {
      // Removed meanwhile: try again next round.
    }
    return false;
  }
}

/** Templates of older migrations are 40 MB each: keep only the current one. */
function removeOtherTemplates(keep: string): void {
  for (const name of fs.readdirSync(TEMPLATE_DIR)) {
    const full = path.join(TEMPLATE_DIR, name);
    if (full === keep || !/^pglite-[0-9a-f]+\.tar$/.test(name)) continue;
    // Another run may still read an old one for a moment; an hour is plenty.
    try {
      if (Date.now() - fs.statSync(full).mtimeMs > 3_600_000) fs.rmSync(full, { force: true });
    } catch {
      // Already gone.
    }
  }
}

// ---------------------------------------------------------------- PostgreSQL

/** Serialises template creation between test workers (any constant distinct from the app's). */
const TEMPLATE_LOCK_KEY = 724_311_906;

async function adminQuery<T>(baseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let postgresTemplate: Promise<string> | undefined;

/** The migrated template database for the current migrations; built once by whoever is first. */
async function ensurePostgresTemplate(baseUrl: string): Promise<string> {
  const name = `ea_tpl_${templateKey()}`;
  await adminQuery(baseUrl, async (c) => {
    await c.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const exists = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount) return;
      // Built under a temporary name and renamed, so a half-built template is never used.
      const building = `${name}_building`;
      await c.query(`drop database if exists ${building} with (force)`);
      await c.query(`create database ${building}`);
      const handle = await openPostgres(databaseUrl(baseUrl, building), 2);
      try {
        await applyMigrations(handle);
        await prepareJobQueue(handle);
      } finally {
        await handle.close();
      }
      await c.query(`alter database ${building} rename to ${name}`);
      // Templates of older migrations are of no further use; one still being copied from is
      // busy, and dropping it simply fails (a later run removes it).
      const old = await c.query<{ datname: string }>(
        `select datname from pg_database where datname like 'ea\\_tpl\\_%' and datname <> $1`,
        [name],
      );
      for (const { datname } of old.rows) {
        await c.query(`drop database if exists ${datname}`).catch(() => undefined);
      }
    } finally {
      await c.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
  return name;
}

/** Test databases older than this were left by a run that was killed before it could drop them. */
const STALE_TEST_DATABASE_SECONDS = 6 * 3600;
let staleDatabasesRemoved: Promise<void> | undefined;

async function dropStaleTestDatabases(c: pg.Client): Promise<void> {
  const { rows } = await c.query<{ datname: string }>(
    `select datname from pg_database where datname ~ '^ea_test_[0-9]+_[0-9a-f]+$'`,
  );
  const cutoff = Date.now() / 1000 - STALE_TEST_DATABASE_SECONDS;
  for (const { datname } of rows) {
    const created = Number(datname.split('_')[2]);
    if (created < cutoff) {
      await c.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
    }
  }
}

/** A fresh database on TEST_DATABASE_URL's server (what createTestDatabase gives with TEST_DB=postgres). */
export async function createPostgresDatabase(): Promise<DatabaseHandle> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  // The creation time in the name lets a later run remove what a killed run left behind.
  const name = `ea_test_${Math.floor(Date.now() / 1000)}_${crypto.randomBytes(4).toString('hex')}`;
  await adminQuery(baseUrl, async (c) => {
    staleDatabasesRemoved ??= dropStaleTestDatabases(c);
    await staleDatabasesRemoved;
    for (let attempt = 0; ; attempt++) {
      postgresTemplate ??= ensurePostgresTemplate(baseUrl);
      const template = await postgresTemplate;
      try {
        await c.query(`create database ${name} template ${template}`);
        return;
      } catch (err) {
        const message = err instanceof Error ? err.message : '';
        // Copying fails while anything else is connected to the template (only ever briefly),
        // and after a run with newer migrations replaced it: then build or find the new one.
        const busy = /being accessed by other users/.test(message);
        const gone = /does not exist/.test(message);
        if ((!busy && !gone) || attempt >= 20) throw err;
        if (gone) postgresTemplate = undefined;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  const handle = await openPostgres(databaseUrl(baseUrl, name), 5);
  if (handle.kind !== 'postgres') throw new Error('unreachable');
  await applyMigrations(handle);
  return {
    ...handle,
    close: async () => {
      await handle.pool.end();
      await adminQuery(baseUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
