import { AsyncLocalStorage } from 'node:async_hooks';
import type { InjectOptions } from 'fastify';
import type { DatabaseHandle } from '../server/db/connect';
import { loadActiveUser } from '../server/platform/access';
import type { TestApp } from './app';

/**
 * Counts the SQL statements one piece of work sends to the database (docs/performance.md, API
 * reads: a list route answers with one statement). Only statements sent from inside `during`'s
 * asynchronous context are counted, so the job queue's polling and other background work of
 * the same process do not disturb the count.
 *
 * PGlite: the client's query and exec, and those inside its transactions. PostgreSQL: the
 * pool's query, and the queries of a client taken from the pool (a transaction).
 */
export interface StatementCounter {
  during<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  /** Puts the database client's methods back. */
  restore(): void;
}

type Query = (...args: unknown[]) => unknown;

function textOf(arg: unknown): string {
  const text = typeof arg === 'string' ? arg : ((arg as { text?: unknown } | null)?.text ?? '?');
  return String(text).replace(/\s+/g, ' ').trim();
}

export function countStatements(handle: DatabaseHandle): StatementCounter {
  const scope = new AsyncLocalStorage<string[]>();
  const record = (arg: unknown) => scope.getStore()?.push(textOf(arg));
  const counted =
    (original: Query, self: unknown): Query =>
    (...args) => {
      record(args[0]);
      return original.apply(self, args);
    };
  const restores: Array<() => void> = [];
  /** Replaces target[key] by a counting version on the instance (its prototype keeps the original). */
  const patch = (target: object, key: string, make: (original: Query) => Query) => {
    const holder = target as Record<string, unknown>;
    const original = holder[key] as Query;
    const own = Object.prototype.hasOwnProperty.call(target, key);
    holder[key] = make(original);
    restores.push(() => {
      if (own) holder[key] = original;
      else delete holder[key];
    });
  };

  if (handle.kind === 'pglite') {
    const client = handle.client;
    patch(client, 'query', (q) => counted(q, client));
    patch(client, 'exec', (q) => counted(q, client));
    patch(client, 'transaction', (original) => (...args) => {
      const body = args[0] as (tx: object) => Promise<unknown>;
      return original.call(client, (tx: Record<string, unknown>) => {
        tx.query = counted(tx.query as Query, tx);
        tx.exec = counted(tx.exec as Query, tx);
        return body(tx);
      });
    });
  } else {
    const pool = handle.pool;
    patch(pool, 'query', (q) => counted(q, pool));
    patch(pool, 'connect', (original) => (...args) => {
      const result = original.apply(pool, args);
      if (!scope.getStore() || !(result instanceof Promise)) return result;
      // The checked-out client's own queries count while it is in this work's hands.
      return result.then(
        (client: object) =>
          new Proxy(client, {
            get(target, key) {
              const value = Reflect.get(target, key, target) as unknown;
              if (key === 'query') return counted(value as Query, target);
              return typeof value === 'function' ? (value as Query).bind(target) : value;
            },
          }),
      );
    });
  }

  return {
    async during(fn) {
      const statements: string[] = [];
      // Awaited inside the scope: app.inject's result only starts the request when awaited.
      const result = await scope.run(statements, async () => await fn());
      return { result, statements };
    },
    restore() {
      for (const undo of restores.splice(0).reverse()) undo();
    },
  };
}

/**
 * The statements one request runs, the caller's own read left out (the active user is cached per
 * process, docs/architecture.md §3; it is read again whenever the cache entry expired, which a
 * slow machine may make happen between any two requests). The request is made once beforehand,
 * so what is prepared or cached once per process is not counted.
 */
export async function statementsOfRequest(
  t: TestApp,
  userId: string,
  request: InjectOptions,
): Promise<string[]> {
  const counter = countStatements(t.ctx.database);
  try {
    const { statements: callerRead } = await counter.during(() => loadActiveUser(t.ctx.db, userId));
    const warm = await t.app.inject(request);
    if (warm.statusCode !== 200) throw new Error(`${warm.statusCode} ${warm.body}`);
    const { result, statements } = await counter.during(() => t.app.inject(request));
    if (result.statusCode !== 200) throw new Error(`${result.statusCode} ${result.body}`);
    return statements.filter((s) => !callerRead.includes(s));
  } finally {
    counter.restore();
  }
}
