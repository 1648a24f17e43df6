import os from 'node:os';
import pg from 'pg';

/**
 * The PostgreSQL server the tests' second database run uses: TEST_DATABASE_URL when it is set
 * (.ci/run sets it to a fresh database), otherwise a server answering on 127.0.0.1:5432 for the
 * current user without a password (as on the project's machines), so that the README's
 * `npm test` runs the PostgreSQL cases wherever one is at hand instead of skipping them. Each
 * test file creates and drops databases of its own there (see test/db.ts); the server's own
 * `postgres` database is only connected to. Undefined when neither is there: those cases then
 * skip, saying they need TEST_DATABASE_URL. TEST_DATABASE_URL=off turns the probe off.
 */
export async function testDatabaseUrl(): Promise<string | undefined> {
  const given = process.env.TEST_DATABASE_URL;
  if (given === 'off') return undefined;
  if (given) return given;
  const url = `postgres://${encodeURIComponent(os.userInfo().username)}@127.0.0.1:5432/postgres`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Sets TEST_DATABASE_URL for the test processes a config starts (see testDatabaseUrl). */
export async function useTestDatabaseUrl(): Promise<string | undefined> {
  const url = await testDatabaseUrl();
  if (url) process.env.TEST_DATABASE_URL = url;
  else delete process.env.TEST_DATABASE_URL;
  return url;
}
