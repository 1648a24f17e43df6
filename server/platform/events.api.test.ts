import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/db';
import { postgresOnly, postgresOnlyReason } from '../../test/requirements';
import type { DatabaseHandle } from '../db/connect';
import {
  createMemoryEventBus,
  createPostgresEventBus,
  EventPayloadTooLargeError,
  MAX_EVENT_PAYLOAD_BYTES,
  type EventBus,
} from './events';

/**
 * The bus's order and delivery: a bus's messages reach every listener in the order they were
 * given, whether posted (not awaited) or published (awaited), and closing sends what is queued.
 * On PostgreSQL two buses with their own pools stand for two processes on one database.
 */

/** A logger whose warnings the test reads. */
function recordingLog(): { log: FastifyBaseLogger; warnings: string[] } {
  const warnings: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      warnings.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
      done();
    },
  });
  return { log: pino({ level: 'warn' }, stream) as FastifyBaseLogger, warnings };
}

describe('the in-process bus (PGlite)', () => {
  it('delivers posts at once, in order, as copies', () => {
    const bus = createMemoryEventBus();
    const heard: unknown[] = [];
    bus.subscribe('order_test', (p) => heard.push(p));
    const payload = { n: 0 };
    for (let n = 0; n < 5; n++) bus.post('order_test', { ...payload, n });
    expect(heard).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(heard[0]).not.toBe(payload);
  });

  it('refuses a bad channel or an oversized payload at once', async () => {
    const bus = createMemoryEventBus();
    expect(() => bus.post('Bad-Channel', {})).toThrow(/Bad channel name/);
    expect(() => bus.post('ok', 'x'.repeat(MAX_EVENT_PAYLOAD_BYTES))).toThrow(
      EventPayloadTooLargeError,
    );
    await expect(bus.publish('ok', 'x'.repeat(MAX_EVENT_PAYLOAD_BYTES))).rejects.toThrow(
      EventPayloadTooLargeError,
    );
  });
});

describe.skipIf(postgresOnly)(`the PostgreSQL bus (LISTEN/NOTIFY)${postgresOnlyReason}`, () => {
  let handle: DatabaseHandle;
  let url: string;
  const pools: pg.Pool[] = [];
  const buses: EventBus[] = [];
  const silent = pino({ level: 'silent' }) as FastifyBaseLogger;

  beforeAll(async () => {
    handle = await createTestDatabase();
    if (handle.kind !== 'postgres') throw new Error('needs TEST_DB=postgres');
    url = handle.url;
  });

  afterAll(async () => {
    for (const b of buses) await b.close();
    for (const p of pools) await p.end().catch(() => undefined);
    await handle?.close();
  });

  /** A bus with a pool of its own (another process). */
  async function otherProcess(log = silent): Promise<{ bus: EventBus; pool: pg.Pool }> {
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    // As the server's pool does (server/db/connect.ts): pg-pool ends its clients without waiting
    // for their sockets, so dropping the test database can end one still closing, and an
    // 'error' on a pool nobody listens to is an uncaught exception (CI met it once).
    pool.on('error', () => undefined);
    pools.push(pool);
    const bus = await createPostgresEventBus(url, pool, log);
    buses.push(bus);
    return { bus, pool };
  }

  async function listener(channel: string): Promise<unknown[]> {
    const { bus } = await otherProcess();
    const heard: unknown[] = [];
    bus.subscribe(channel, (p) => heard.push(p));
    await bus.ready();
    return heard;
  }

  it('keeps the order of many quick posts and publishes, for another process and its own', async () => {
    const there = await listener('order_many');
    const { bus } = await otherProcess();
    const here: unknown[] = [];
    bus.subscribe('order_many', (p) => here.push(p));
    await bus.ready();

    const expected: unknown[] = [];
    const published: Array<Promise<void>> = [];
    // Bursts (several statements' worth, with repeats of one payload) and awaited publishes
    // among them.
    for (let burst = 0; burst < 6; burst++) {
      for (let i = 0; i < 120; i++) {
        const payload = i % 40 === 0 ? { same: true } : { burst, i };
        bus.post('order_many', payload);
        expected.push(payload);
      }
      const awaited = { burst, published: true };
      published.push(bus.publish('order_many', awaited));
      expected.push(awaited);
      if (burst % 2 === 0) await published.at(-1);
    }
    await Promise.all(published);
    await expect.poll(() => there.length, { timeout: 20_000 }).toBe(expected.length);
    await expect.poll(() => here.length, { timeout: 20_000 }).toBe(expected.length);
    expect(there).toEqual(expected);
    expect(here).toEqual(expected);
  });

  it('a message repeated within one statement still arrives every time', async () => {
    const there = await listener('order_repeats');
    const { bus } = await otherProcess();
    for (let i = 0; i < 5; i++) bus.post('order_repeats', { same: 1 });
    await bus.flush();
    await expect.poll(() => there.length, { timeout: 10_000 }).toBe(5);
    expect(there).toEqual(Array.from({ length: 5 }, () => ({ same: 1 })));
  });

  it('closing sends everything queued before it, in order', async () => {
    const there = await listener('order_close');
    const { bus, pool } = await otherProcess();
    const expected = Array.from({ length: 350 }, (_, n) => ({ n }));
    for (const p of expected) bus.post('order_close', p);
    await bus.close();
    // The pool is gone once the bus is closed, as when the process ends.
    await pool.end();
    await expect.poll(() => there.length, { timeout: 20_000 }).toBe(expected.length);
    expect(there).toEqual(expected);
  });

  it('a failed send rejects publish and logs lost posts; later messages still go', async () => {
    const there = await listener('order_fail');
    const { log, warnings } = recordingLog();
    const { bus } = await otherProcess(log);
    // The pool cannot send: every message given now fails.
    const ended = new pg.Pool({ connectionString: url, max: 1 });
    ended.on('error', () => undefined);
    await ended.end();
    const broken = await createPostgresEventBus(url, ended, log);
    buses.push(broken);
    broken.post('order_fail', { lost: 1 });
    await expect(broken.publish('order_fail', { lost: 2 })).rejects.toThrow();
    await broken.flush();
    expect(warnings).toContain('could not send bus messages');
    // A working bus's messages are unaffected, and the broken one keeps trying later messages.
    await bus.publish('order_fail', { ok: 1 });
    await expect.poll(() => there, { timeout: 10_000 }).toEqual([{ ok: 1 }]);
    await expect(broken.publish('order_fail', { lost: 3 })).rejects.toThrow();
  });
});
