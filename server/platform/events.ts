import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/connect';

/**
 * Publish/subscribe between the parts of the server, and between processes (docs/architecture.md
 * §3).
 *
 * - Embedded (PGlite): one process owns the database, so an in-process emitter is the bus.
 * - PostgreSQL: LISTEN/NOTIFY. Every process listens on a dedicated connection and receives its
 *   own notifications too, so a message is delivered exactly once per process either way.
 *   Notifications sent one after another (each awaited) arrive in that order.
 *
 * Payloads are JSON. PostgreSQL limits a notification to 8000 bytes: callers keep payloads small
 * (the agent runtime sends a reference instead of a large update and the receiver reads it back).
 */
export interface EventBus {
  readonly kind: 'memory' | 'postgres';
  publish(channel: string, payload: unknown): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(channel: string, handler: (payload: unknown) => void): () => void;
  /** Resolves once every subscription so far is active (LISTEN issued). */
  ready(): Promise<void>;
  /**
   * Called after the bus was cut off and listens again (PostgreSQL): messages published in
   * between were lost, so whoever keeps state from them starts over. Returns the unsubscribe.
   */
  onReconnect(handler: () => void): () => void;
  close(): Promise<void>;
}

/** Largest JSON payload (bytes) publish accepts; PostgreSQL's own limit is 8000. */
export const MAX_EVENT_PAYLOAD_BYTES = 7900;

export class EventPayloadTooLargeError extends Error {
  constructor(channel: string, bytes: number) {
    super(`Event on ${channel} is ${bytes} bytes; the limit is ${MAX_EVENT_PAYLOAD_BYTES}`);
  }
}

function encode(channel: string, payload: unknown): string {
  const text = JSON.stringify(payload);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_EVENT_PAYLOAD_BYTES) throw new EventPayloadTooLargeError(channel, bytes);
  return text;
}

/** Channel names are SQL identifiers on PostgreSQL: keep them to [a-z0-9_]. */
function assertChannel(channel: string): void {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Bad channel name: ${channel}`);
}

export function createMemoryEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    async publish(channel, payload) {
      assertChannel(channel);
      // Same size rule as PostgreSQL, so code tested embedded also works scaled out.
      const text = encode(channel, payload);
      const copy: unknown = JSON.parse(text);
      emitter.emit(channel, copy);
    },
    subscribe(channel, handler) {
      assertChannel(channel);
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    async ready() {},
    onReconnect() {
      // One process, no connection to lose.
      return () => undefined;
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * LISTEN/NOTIFY over a dedicated client that reconnects (and re-listens) when the connection
 * drops; NOTIFY goes through the pool.
 */
export async function createPostgresEventBus(
  url: string,
  pool: pg.Pool,
  log: FastifyBaseLogger,
): Promise<EventBus> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const channels = new Set<string>();
  let client: pg.Client | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let pending: Promise<unknown> = Promise.resolve();
  const reconnectHandlers = new Set<() => void>();
  let connectedBefore = false;

  const onNotification = (msg: pg.Notification) => {
    if (!msg.payload) return;
    let payload: unknown;
    try {
      payload = JSON.parse(msg.payload);
    } catch {
      return;
    }
    emitter.emit(msg.channel, payload);
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url, application_name: 'econagents-events' });
    c.on('notification', onNotification);
    c.on('error', (err) => {
      log.warn({ err: err.message }, 'event bus connection failed; reconnecting');
      scheduleReconnect();
    });
    c.on('end', () => scheduleReconnect());
    await c.connect();
    for (const ch of channels) await c.query(`LISTEN ${ch}`);
    client = c;
    if (connectedBefore) for (const handler of reconnectHandlers) handler();
    connectedBefore = true;
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return;
    const old = client;
    client = undefined;
    old?.removeAllListeners();
    void old?.end().catch(() => undefined);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch((err: unknown) => {
        log.warn({ err: (err as Error).message }, 'event bus reconnect failed');
        scheduleReconnect();
      });
    }, 1000);
    reconnectTimer.unref();
  }

  await connect();

  return {
    kind: 'postgres',
    async publish(channel, payload) {
      assertChannel(channel);
      await pool.query('select pg_notify($1, $2)', [channel, encode(channel, payload)]);
    },
    subscribe(channel, handler) {
      assertChannel(channel);
      if (!channels.has(channel)) {
        channels.add(channel);
        // One LISTEN after another: a pg client runs one query at a time (and warns otherwise).
        // Without a connection now, the reconnect listens on every channel in the set.
        pending = pending
          .then(() => client?.query(`LISTEN ${channel}`))
          .catch((err: unknown) => {
            log.warn({ err: (err as Error).message, channel }, 'LISTEN failed');
          });
      }
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    async ready() {
      await pending;
    },
    onReconnect(handler) {
      reconnectHandlers.add(handler);
      return () => reconnectHandlers.delete(handler);
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      emitter.removeAllListeners();
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => undefined);
        await c.end().catch(() => undefined);
      }
    },
  };
}

/** The bus for a database: in memory on PGlite, LISTEN/NOTIFY on PostgreSQL. */
export async function createEventBus(
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): Promise<EventBus> {
  return database.kind === 'postgres'
    ? createPostgresEventBus(database.url, database.pool, log)
    : createMemoryEventBus();
}
