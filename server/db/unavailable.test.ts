import net from 'node:net';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable';

/** The error a real query fails with. */
async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('the query did not fail');
}

/** A port nothing listens on: bound, its number read, closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isDatabaseUnavailable', () => {
  it('is true for a refused connection, as Drizzle reports it', async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x`,
    });
    const err = await errorOf(() => drizzle(pool).execute(sql`select 1`));
    await pool.end();
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('is false for what a statement or a value gets wrong, and for anything else', () => {
    const refused = Object.assign(new Error('duplicate key value'), { code: '23505' });
    expect(isDatabaseUnavailable(refused)).toBe(false);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: refused }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('The model returned no text'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });

  const url = process.env.TEST_DATABASE_URL;
  // TEST_DATABASE_URL, or a local server: test/local-postgres.ts. .ci/run always sets it.
  it.runIf(url)(
    'is true for a connection the server ends and false for a syntax error (needs TEST_DATABASE_URL)',
    async () => {
      const victim = new pg.Client({ connectionString: url });
      const admin = new pg.Client({ connectionString: url });
      await victim.connect();
      await admin.connect();
      victim.on('error', () => undefined);
      try {
        const syntax = await errorOf(() => drizzle(victim).execute(sql`selec 1`));
        expect(isDatabaseUnavailable(syntax)).toBe(false);
        const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
        const ended = errorOf(() => drizzle(victim).execute(sql`select pg_sleep(5)`));
        await new Promise((resolve) => setTimeout(resolve, 200));
        await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        expect(isDatabaseUnavailable(await ended)).toBe(true);
      } finally {
        await victim.end().catch(() => undefined);
        await admin.end();
      }
    },
  );
});
