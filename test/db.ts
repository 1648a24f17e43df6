import crypto from 'node:crypto';
import pg from 'pg';
import {
  applyMigrations,
  openPglite,
  openPostgres,
  type DatabaseHandle,
} from '../server/db/connect';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database on TEST_DATABASE_URL's server that is dropped on close.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.TEST_DB !== 'postgres') {
    const handle = await openPglite('memory://');
    await applyMigrations(handle);
    return handle;
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `ea_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString(), 5);
  if (handle.kind !== 'postgres') throw new Error('unreachable');
  await applyMigrations(handle);
  return {
    ...handle,
    close: async () => {
      await handle.pool.end();
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
