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
 *
 * Order: a bus sends its messages in the order they were given (`post` and `publish` alike), so
 * every process receives one bus's messages in that order. On PostgreSQL they leave through one
 * queue: one statement at a time, each carrying every message given while the one before was
 * on its way (so a caller that posts need not wait for a round trip per message).
 *
 * Payloads are JSON. PostgreSQL limits a notification to 8000 bytes: callers keep payloads small
 * (the agent runtime sends a reference instead of a large update and the receiver reads it back).
 */
export interface EventBus {
  readonly kind: 'memory' | 'postgres';
  /**
   * Sends the message after those given before it and resolves once it was sent; rejects if
   * sending failed. A bad channel or a payload over the limit throws at once.
   */
  publish(channel: string, payload: unknown): Promise<void>;
  /**
   * Queues the message (in order, as publish) without waiting for it to be sent: for messages
   * whose loss is not the caller's failure (a failed send is logged). A bad channel or a payload
   * over the limit throws at once.
   */
  post(channel: string, payload: unknown): void;
  /** Resolves once every message given so far was sent (or failed). */
  flush(): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(channel: string, handler: (payload: unknown) => void): () => void;
  /** Resolves once every subscription so far is active (LISTEN issued). */
  ready(): Promise<void>;
  /**
   * Called after the bus was cut off and listens again (PostgreSQL): messages published in
   * between were lost, so whoever keeps state from them starts over. Returns the unsubscribe.
   */
  onReconnect(handler: () => void): () => void;
  /** Sends what is queued, then stops listening. */
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
  const emit = (channel: string, payload: unknown) => {
    assertChannel(channel);
    // Same size rule as PostgreSQL, so code tested embedded also works scaled out.
    const text = encode(channel, payload);
    const copy: unknown = JSON.parse(text);
    emitter.emit(channel, copy);
  };
  return {
    kind: 'memory',
    async publish(channel, payload) {
      emit(channel, payload);
    },
    // Delivered at once, so nothing is ever queued.
    post: emit,
    async flush() {},
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

/** Most notifications sent in one statement. */
const MAX_BATCH = 100;

interface Outgoing {
  channel: string;
  text: string;
  /** publish's caller, waiting for this message to be sent. */
  waiter?: { resolve: () => void; reject: (err: Error) => void };
}

/**
 * The next statement's messages, taken from the front of the queue: at most MAX_BATCH, and none
 * that repeats one already in it. Notifications of one transaction with the same channel and
 * payload reach listeners once, so a repeat waits for the next statement (its own transaction).
 */
function takeBatch(queue: Outgoing[]): Outgoing[] {
  const seen = new Set<string>();
  let n = 0;
  while (n < queue.length && n < MAX_BATCH) {
    const key = `${queue[n]!.channel}\n${queue[n]!.text}`;
    if (seen.has(key)) break;
    seen.add(key);
    n++;
  }
  return queue.splice(0, n);
}

/**
 * LISTEN/NOTIFY over a dedicated client that reconnects (and re-listens) when the connection
 * drops; NOTIFY goes through the pool, from one queue per bus.
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

  const outbox: Outgoing[] = [];
  let draining: Promise<void> | undefined;

  async function send(batch: Outgoing[]): Promise<void> {
    if (batch.length === 1) {
      await pool.query('select pg_notify($1, $2)', [batch[0]!.channel, batch[0]!.text]);
      return;
    }
    // One transaction: its notifications are delivered in the order they were sent, and the
    // ORDER BY makes that the queue's order (a volatile function in the select list is evaluated
    // after the sort).
    await pool.query(
      'select pg_notify(c, p) from unnest($1::text[], $2::text[]) with ordinality as m(c, p, i) order by i',
      [batch.map((m) => m.channel), batch.map((m) => m.text)],
    );
  }

  async function drain(): Promise<void> {
    // Messages given in the same turn of the event loop go together.
    await Promise.resolve();
    while (outbox.length > 0) {
      const batch = takeBatch(outbox);
      try {
        await send(batch);
        for (const m of batch) m.waiter?.resolve();
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        const posted = batch.filter((m) => !m.waiter).length;
        if (posted > 0) {
          log.warn({ err: error.message, messages: posted }, 'could not send bus messages');
        }
        for (const m of batch) m.waiter?.reject(error);
      }
    }
  }

  function startDrain(): void {
    draining = drain().finally(() => {
      draining = undefined;
      // Given after the loop ended, before this ran: start again.
      if (outbox.length > 0) startDrain();
    });
  }

  function enqueue(message: Outgoing): void {
    outbox.push(message);
    if (!draining) startDrain();
  }

  /** Checks the message (throws at once) and returns it ready to queue. */
  function outgoing(channel: string, payload: unknown): Outgoing {
    assertChannel(channel);
    return { channel, text: encode(channel, payload) };
  }

  async function flush(): Promise<void> {
    while (draining) await draining;
  }

  return {
    kind: 'postgres',
    publish(channel, payload) {
      let message: Outgoing;
      try {
        message = outgoing(channel, payload);
      } catch (err) {
        return Promise.reject(err as Error);
      }
      return new Promise<void>((resolve, reject) => {
        message.waiter = { resolve, reject };
        enqueue(message);
      });
    },
    post(channel, payload) {
      enqueue(outgoing(channel, payload));
    },
    flush,
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
      // What was given before the close is sent (the pool is the database's, still open).
      await flush();
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
