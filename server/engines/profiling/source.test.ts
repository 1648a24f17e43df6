import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDuckDb, queryOne, type DuckDb } from './duckdb';
import { withSource } from './source';

/** The connection pool a profile's queries share (one queue, at most `connections` at once). */

const dir = mkdtempSync(path.join(os.tmpdir(), 'source-'));
const file = path.join(dir, 'numbers.parquet');
const db = createDuckDb({ threads: 1, connections: 2 });

beforeAll(async () => {
  await db.withConnection((c) =>
    c.run(`COPY (SELECT range AS x FROM range(100)) TO '${file}' (FORMAT parquet)`),
  );
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('withSource pool', () => {
  it('runs at most `connections` tasks at once, in the order handed in, across runs', async () => {
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async (c: DuckDBConnection) => {
      started.push(name);
      running++;
      most = Math.max(most, running);
      const row = await queryOne(c, 'SELECT count(*)::DOUBLE AS n FROM src');
      await sleep(20);
      running--;
      return `${name}:${row.n}`;
    };
    const results = await withSource(db, file, async (_conn, columns, pool) => {
      expect(columns).toEqual([{ name: 'x', type: 'BIGINT' }]);
      const first = pool.run([task('a1'), task('a2'), task('a3')]);
      const second = pool.run([task('b1'), task('b2')]);
      return Promise.all([first, second]);
    });
    expect(results).toEqual([
      ['a1:100', 'a2:100', 'a3:100'],
      ['b1:100', 'b2:100'],
    ]);
    expect(most).toBe(2);
    // The first two open a connection each (whichever opens first starts first); the rest
    // wait in the order handed in, the second run's behind the first's.
    expect(started.slice(0, 2).sort()).toEqual(['a1', 'a2']);
    expect(started.slice(2)).toEqual(['a3', 'b1', 'b2']);
  });

  it('fails the tasks when no connection can be opened, instead of leaving them waiting', async () => {
    let attempts = 0;
    const broken: DuckDb = {
      connections: 2,
      withConnection: (fn) => db.withConnection(fn),
      connect: () => {
        attempts++;
        return Promise.reject(new Error('out of connections'));
      },
      close: () => undefined,
    };
    await expect(
      withSource(broken, file, (_conn, _columns, pool) =>
        pool.run([0, 1, 2, 3].map(() => async () => 'never')),
      ),
    ).rejects.toThrow('out of connections');
    // Each queued task made its own attempt once the one before it failed.
    expect(attempts).toBe(4);
  });

  it('hands a task a connection again after one could not be opened', async () => {
    let attempts = 0;
    const flaky: DuckDb = {
      connections: 1,
      withConnection: (fn) => db.withConnection(fn),
      connect: () => (++attempts === 1 ? Promise.reject(new Error('once')) : db.connect()),
      close: () => undefined,
    };
    const outcome = await withSource(flaky, file, async (_conn, _columns, pool) => {
      const [first, second] = await Promise.allSettled([
        pool.run([async () => 'first']),
        pool.run([async (c) => (await queryOne(c, 'SELECT max(x) AS m FROM src')).m]),
      ]);
      return { first: first.status, second: second.status === 'fulfilled' ? second.value : null };
    });
    expect(outcome).toEqual({ first: 'rejected', second: [99] });
  });
});
