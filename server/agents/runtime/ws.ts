import crypto from 'node:crypto';
import websocket from '@fastify/websocket';
import { inArray } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  WS_CLOSE,
  WS_PATH,
  teamIdOfSubscription,
  wsClientMessageSchema,
  type SessionUpdate,
  type WsServerMessage,
} from '../../../common/agents';
import type { Api } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { currentUser, loadActiveUser } from '../../platform/access';
import type { EventBus } from '../../platform/events';
import { jsonTooDeep, TOO_DEEP_MESSAGE } from '../../platform/json-depth';
import { createSessionPresence } from '../../platform/presence';
import { CHANNELS, type RuntimeCore, type UpdateEnvelope } from './runtime-core';
import { hydrateUpdate } from './session-events';
import type { SessionActor, SessionService } from './service';
import { ACCESS_REVOKED_CHANNEL } from '../../platform/active-users';

/** Largest message a client may send (bytes). */
const MAX_CLIENT_MESSAGE = 16 * 1024;
/** Subscriptions one connection may hold. */
const MAX_SUBSCRIPTIONS = 100;
/**
 * A client whose unsent data stays over the limit this long is dropped. A burst (one large
 * update) drains in milliseconds on a healthy connection; a client that stopped reading does not.
 */
const SLOW_CLIENT_GRACE_MS = 5000;
/** Over this multiple of the limit a client is dropped at once (memory protection). */
const HARD_LIMIT_FACTOR = 16;
const ALL = '*';
/**
 * How fresh a check of an admin's access must be before the socket is sent another user's
 * session update (an admin demoted a moment ago stops receiving them within this time).
 */
const ADMIN_RECHECK_MS = 1000;

/** Why a socket is closed when its access ends (close code WS_CLOSE.unauthorized). */
export const WS_ACCESS_ENDED = {
  expired: 'Access token expired',
  /** Signed out, password changed or reset, role changed: the client refreshes and reconnects. */
  revoked: 'Access token no longer valid',
  /** Rejected, suspended or deleted: refreshing will fail too. */
  inactive: 'Account no longer has access',
} as const;

/**
 * Bus channel of revocations: a user's access changed (signed out, password changed, suspended,
 * role changed), and every process's hub checks that user's sockets. The message only names the
 * user; the hub reads the user's row itself, so a stray message can close nothing that is valid.
 */
export { ACCESS_REVOKED_CHANNEL };
const accessRevokedMessageSchema = z.object({ userId: z.string().min(1).max(100) });

/**
 * Tells every process's socket hub that a user's access changed, after the change is written.
 * On PostgreSQL this process's hub (if it has one) checks at once, so its sockets are closed
 * before the request that revoked them is answered; the notification reaches the other
 * processes (and this one again, which finds nothing left to close). In one process (PGlite) the
 * bus delivers synchronously. A failure to publish is the caller's to log: the token version
 * has moved on anyway, and the heartbeat's check closes the sockets within one heartbeat.
 */
export async function announceAccessRevoked(
  bus: EventBus,
  hub: WsHub | undefined,
  userId: string,
): Promise<void> {
  const local = bus.kind === 'postgres' ? hub?.accessRevoked(userId) : undefined;
  await bus.publish(ACCESS_REVOKED_CHANNEL, { userId });
  await local;
}

interface Client {
  id: string;
  user: SessionActor;
  socket: WebSocket;
  alive: boolean;
  /** teamId -> session ids, or ALL for every session of the caller in that team. */
  subs: Map<string, Set<string>>;
  /** Sessions its screen shows now (watch messages), mirrored in session_watchers. */
  watching: Set<string>;
  /** Since when its unsent data has been over the limit. */
  overSince: number | undefined;
  /**
   * When the access token it connected with expires (ms), whether it came in the Authorization
   * header or in ?token=; then it must reconnect with a new one.
   */
  expiresAt: number;
  /** The token version of that token: once the user's moves on, the socket's access has ended. */
  tokenVersion: number;
  /** When its user's access was last confirmed against the database (ms). */
  checkedAt: number;
  /**
   * The check started when its user's access was revoked (accessRevoked); messages wait for it,
   * so nothing (not even a ping) is answered between the revocation and the close.
   */
  revocationCheck: Promise<void> | undefined;
}

export interface WsHub {
  register(app: Api): Promise<void>;
  /** Connected clients (benchmarks and tests). */
  clientCount(): number;
  /**
   * The user's access changed (signed out, password changed, suspended, role changed): checks
   * that user's sockets on this process against the database now and closes those whose access
   * ended. Also called for every revocation that arrives on the bus from any process.
   */
  accessRevoked(userId: string): Promise<void>;
  close(): Promise<void>;
}

export function createWsHub(
  core: RuntimeCore,
  sessions: SessionService,
  opts: { heartbeatMs: number; maxBufferedBytes: number },
): WsHub {
  const clients = new Set<Client>();
  const presence = createSessionPresence(core.app.db);
  /**
   * How long a watch row lasts without a heartbeat's refresh: a process that dies leaves rows
   * that stop counting within this time (its clients reconnect elsewhere and watch again).
   */
  const watchTtlMs = 2 * opts.heartbeatMs + 10_000;
  const presenceFailed = (err: unknown) => {
    core.app.log.warn({ err: (err as Error).message }, 'could not record which session is shown');
  };
  const byUser = new Map<string, Set<Client>>();
  /** Admins' connections, which may follow other users' sessions by id. */
  const admins = new Set<Client>();

  /** True when the client was dropped for not reading what it is sent. */
  function dropIfSlow(client: Client): boolean {
    const buffered = client.socket.bufferedAmount;
    if (buffered <= opts.maxBufferedBytes) {
      client.overSince = undefined;
      return false;
    }
    const now = Date.now();
    client.overSince ??= now;
    if (
      buffered > opts.maxBufferedBytes * HARD_LIMIT_FACTOR ||
      now - client.overSince >= SLOW_CLIENT_GRACE_MS
    ) {
      // A client that does not read would make the server hold ever more data: drop it.
      client.socket.close(WS_CLOSE.tooSlow, 'Client too slow');
      client.socket.terminate();
      remove(client);
      return true;
    }
    return false;
  }

  function send(client: Client, message: WsServerMessage | string | Buffer): void {
    const socket = client.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (dropIfSlow(client)) return;
    if (Buffer.isBuffer(message)) socket.send(message, { binary: false });
    else socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  function matches(client: Client, update: SessionUpdate, ownerId: string): boolean {
    const ids = client.subs.get(update.teamId);
    if (!ids) return false;
    if (ids.has(update.sessionId))
      return client.user.id === ownerId || client.user.role === 'admin';
    return ids.has(ALL) && client.user.id === ownerId;
  }

  /**
   * Sends an update to every socket subscribed to it: serialised and encoded once, written to
   * each socket in one synchronous loop (a socket's write is queued, never awaited). The owner's
   * sockets get it first; an administrator following another user's session gets it only once
   * their access was confirmed within ADMIN_RECHECK_MS, those that need a new check being checked
   * together in one query (an admin whose access ended is closed, not sent to).
   */
  async function deliver(ownerId: string, update: SessionUpdate): Promise<void> {
    let frame: Buffer | undefined;
    const encoded = () =>
      (frame ??= Buffer.from(JSON.stringify({ type: 'session-update', ...update })));
    const own = byUser.get(ownerId);
    if (own) {
      for (const client of own) if (matches(client, update, ownerId)) send(client, encoded());
    }
    let stale: Client[] | undefined;
    const now = Date.now();
    for (const client of admins) {
      if (client.user.id === ownerId || !matches(client, update, ownerId)) continue;
      if (now - client.checkedAt > ADMIN_RECHECK_MS) (stale ??= []).push(client);
      else send(client, encoded());
    }
    if (!stale) return;
    try {
      await checkUsers([...new Set(stale.map((c) => c.user.id))], true);
    } catch (err) {
      // Not confirmed: these admins miss this update (polling shows it) rather than get it unchecked.
      core.app.log.warn({ err: (err as Error).message }, 'WebSocket access check failed');
      return;
    }
    for (const client of stale) {
      // Still connected (its access lasts) and still subscribed after the check's wait.
      if (clients.has(client) && matches(client, update, ownerId)) send(client, encoded());
    }
  }

  // Updates are handled one after another so that a large one, read back from the database,
  // does not overtake the ones after it.
  let chain: Promise<void> = Promise.resolve();
  const unsubscribe = core.bus.subscribe(CHANNELS.update, (payload) => {
    const envelope = payload as UpdateEnvelope;
    chain = chain
      .then(async () => {
        if (!byUser.has(envelope.ownerId) && admins.size === 0) return;
        await deliver(envelope.ownerId, await hydrateUpdate(core, envelope));
      })
      .catch((err: unknown) => {
        core.app.log.warn({ err: (err as Error).message }, 'could not deliver session update');
      });
  });

  const heartbeat = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      if (dropIfSlow(client)) continue;
      if (Date.now() >= client.expiresAt) {
        // A connection lives no longer than its token: the client refreshes and reconnects, and
        // access control checks the user again.
        endAccess(client, WS_ACCESS_ENDED.expired);
        continue;
      }
      client.alive = false;
      try {
        client.socket.ping();
      } catch {
        client.socket.terminate();
      }
    }
    recheckAll();
    const watchers = [...clients].filter((c) => c.watching.size > 0).map((c) => c.id);
    if (watchers.length > 0) presence.refresh(watchers, watchTtlMs).catch(presenceFailed);
  }, opts.heartbeatMs);
  heartbeat.unref();

  /** Closes a socket whose access has ended, with the reason the client shows or acts on. */
  function endAccess(client: Client, reason: string): void {
    client.socket.close(WS_CLOSE.unauthorized, reason);
    remove(client);
  }

  /** Why the client's access has ended, or undefined while it lasts. */
  function accessEnded(
    client: Client,
    row:
      { role: string; status: string; suspendedAt: Date | null; tokenVersion: number } | undefined,
  ): string | undefined {
    if (Date.now() >= client.expiresAt) return WS_ACCESS_ENDED.expired;
    if (!row || row.status !== 'approved' || row.suspendedAt !== null) {
      return WS_ACCESS_ENDED.inactive;
    }
    // Versions only move on: a newer token than the row read (a sign-in during the check) stays.
    if (row.tokenVersion > client.tokenVersion || row.role !== client.user.role) {
      return WS_ACCESS_ENDED.revoked;
    }
    return undefined;
  }

  /**
   * Checks the client's user against the database (status, suspension, role, token version)
   * and its token's expiry; closes the socket and returns false when access has ended.
   */
  async function stillAllowed(client: Client): Promise<boolean> {
    if (!clients.has(client)) return false;
    const row = await loadActiveUser(core.app.db, client.user.id);
    const ended = accessEnded(
      client,
      row && {
        role: row.role,
        status: row.status,
        suspendedAt: null,
        tokenVersion: row.tokenVersion,
      },
    );
    if (ended) {
      send(client, { type: 'error', error: `${ended}: sign in again to continue` });
      endAccess(client, ended);
      return false;
    }
    client.checkedAt = Date.now();
    return true;
  }

  /**
   * Checks these users' sockets against the database in one query (status, suspension, role,
   * token version) and closes each socket whose access has ended (with `tell`, after an error
   * message saying so, as a refused message gets).
   */
  async function checkUsers(ids: string[], tell = false): Promise<void> {
    if (ids.length === 0) return;
    const rows = await core.app.db
      .select({
        id: users.id,
        role: users.role,
        status: users.status,
        suspendedAt: users.suspendedAt,
        tokenVersion: users.tokenVersion,
      })
      .from(users)
      .where(inArray(users.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const now = Date.now();
    for (const id of ids) {
      for (const client of [...(byUser.get(id) ?? [])]) {
        const ended = accessEnded(client, byId.get(client.user.id));
        if (!ended) {
          client.checkedAt = now;
          continue;
        }
        if (tell) send(client, { type: 'error', error: `${ended}: sign in again to continue` });
        endAccess(client, ended);
      }
    }
  }

  /**
   * At every heartbeat, every connected user is checked in one query: a socket whose user was
   * signed out, suspended or demoted closes within one heartbeat even if it sends nothing and the
   * revocation message (accessRevoked) was lost.
   */
  let recheckRunning = false;
  function recheckAll(): void {
    if (recheckRunning || clients.size === 0) return;
    recheckRunning = true;
    checkUsers([...byUser.keys()])
      .catch((err: unknown) => {
        core.app.log.warn({ err: (err as Error).message }, 'WebSocket access check failed');
      })
      .finally(() => {
        recheckRunning = false;
      });
  }

  /**
   * Checks one user's sockets now. Until the check is done their messages wait for it; should
   * the database not answer, the sockets are closed as revoked (the client refreshes its token
   * and reconnects, and the upgrade checks it again) rather than kept open on a revoked token.
   */
  function accessRevoked(userId: string): Promise<void> {
    const own = byUser.get(userId);
    if (!own || own.size === 0) return Promise.resolve();
    const check = checkUsers([userId]).catch((err: unknown) => {
      core.app.log.warn(
        { err: (err as Error).message },
        'WebSocket access check after a revocation failed; closing the sockets',
      );
      for (const client of [...(byUser.get(userId) ?? [])]) {
        endAccess(client, WS_ACCESS_ENDED.revoked);
      }
    });
    for (const client of own) client.revocationCheck = check;
    return check.finally(() => {
      for (const client of own) {
        if (client.revocationCheck === check) client.revocationCheck = undefined;
      }
    });
  }

  const unsubscribeRevocations = core.bus.subscribe(ACCESS_REVOKED_CHANNEL, (payload) => {
    const parsed = accessRevokedMessageSchema.safeParse(payload);
    if (parsed.success) void accessRevoked(parsed.data.userId);
  });

  /** Forgets a client; the promise settles when its watch rows are deleted (never rejects). */
  function remove(client: Client): Promise<void> {
    let unwatched = Promise.resolve();
    if (client.watching.size > 0) {
      client.watching.clear();
      unwatched = presence.unwatch(client.id).catch(presenceFailed);
    }
    clients.delete(client);
    admins.delete(client);
    const set = byUser.get(client.user.id);
    set?.delete(client);
    if (set && set.size === 0) byUser.delete(client.user.id);
    return unwatched;
  }

  async function onMessage(client: Client, raw: string): Promise<void> {
    // A revocation is being checked: answer nothing until it is known whether access lasts.
    if (client.revocationCheck) {
      await client.revocationCheck;
      if (!clients.has(client)) return;
    }
    if (jsonTooDeep(raw)) {
      send(client, { type: 'error', error: TOO_DEEP_MESSAGE });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      send(client, { type: 'error', error: 'Messages must be JSON objects' });
      return;
    }
    const parsed = wsClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      const type = (json as { type?: unknown } | null)?.type;
      send(client, {
        type: 'error',
        error:
          typeof type === 'string' &&
          !['subscribe', 'unsubscribe', 'agent-control', 'ping', 'watch', 'unwatch'].includes(type)
            ? `Unknown message type: ${type.slice(0, 50)}`
            : `Invalid ${typeof type === 'string' ? type.slice(0, 50) : ''} message: ${parsed.error.issues
                .map((i) => `${i.path.join('.') || 'message'}: ${i.message}`)
                .join('; ')}`,
      });
      return;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'ping':
        send(client, { type: 'pong', timestamp: new Date().toISOString() });
        return;
      case 'subscribe': {
        if (!(await stillAllowed(client))) return;
        const teamId = teamIdOfSubscription(msg.subscriptionType);
        if (!core.registry.team(teamId)) {
          send(client, {
            type: 'error',
            error: `Unknown subscription type: ${msg.subscriptionType}`,
          });
          return;
        }
        const sessionId = msg.filters?.sessionId;
        if (sessionId && !(await sessions.canSee(client.user, sessionId))) {
          send(client, { type: 'error', error: 'Session not found' });
          return;
        }
        const count = [...client.subs.values()].reduce((n, s) => n + s.size, 0);
        if (count >= MAX_SUBSCRIPTIONS) {
          send(client, {
            type: 'error',
            error: `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`,
          });
          return;
        }
        const ids = client.subs.get(teamId) ?? new Set<string>();
        ids.add(sessionId ?? ALL);
        client.subs.set(teamId, ids);
        send(client, {
          type: 'subscribed',
          subscriptionType: msg.subscriptionType,
          filters: sessionId ? { sessionId } : {},
        });
        return;
      }
      case 'unsubscribe': {
        if (!msg.subscriptionType) {
          client.subs.clear();
        } else {
          const teamId = teamIdOfSubscription(msg.subscriptionType);
          const sessionId = msg.filters?.sessionId;
          if (sessionId) client.subs.get(teamId)?.delete(sessionId);
          else client.subs.delete(teamId);
          if (client.subs.get(teamId)?.size === 0) client.subs.delete(teamId);
        }
        send(client, {
          type: 'unsubscribed',
          ...(msg.subscriptionType ? { subscriptionType: msg.subscriptionType } : {}),
        });
        return;
      }
      case 'watch': {
        if (!(await stillAllowed(client))) return;
        if (!(await sessions.canSee(client.user, msg.sessionId))) {
          send(client, { type: 'error', error: 'Session not found' });
          return;
        }
        if (!client.watching.has(msg.sessionId) && client.watching.size >= MAX_SUBSCRIPTIONS) {
          send(client, {
            type: 'error',
            error: `At most ${MAX_SUBSCRIPTIONS} watched sessions per connection`,
          });
          return;
        }
        client.watching.add(msg.sessionId);
        await presence.watch(client.id, client.user.id, msg.sessionId, watchTtlMs);
        // Closed while the row was written: take it back.
        if (!clients.has(client)) await presence.unwatch(client.id);
        else send(client, { type: 'watching', sessionId: msg.sessionId, watching: true });
        return;
      }
      case 'unwatch': {
        client.watching.delete(msg.sessionId);
        await presence.unwatch(client.id, msg.sessionId);
        send(client, { type: 'watching', sessionId: msg.sessionId, watching: false });
        return;
      }
      case 'agent-control': {
        if (!(await stillAllowed(client))) return;
        try {
          const session = await sessions.control(client.user, msg.executionId, msg.action);
          send(client, {
            type: 'agent-control-result',
            action: msg.action,
            executionId: msg.executionId,
            success: true,
            status: session.status,
          });
        } catch (err) {
          send(client, {
            type: 'agent-control-result',
            action: msg.action,
            executionId: msg.executionId,
            success: false,
            error: err instanceof AppError ? err.message : 'The action failed',
          });
          if (!(err instanceof AppError)) {
            core.app.log.error({ err }, 'agent-control failed');
          }
        }
        return;
      }
    }
  }

  return {
    async register(app) {
      // On shutdown every socket is closed with 1001 (going away) before the plugin closes the
      // rest without a code, so clients know to reconnect (to another web process if there is
      // one) and fill the gap from the log cursor. Added first, so it runs first.
      app.addHook('preClose', async () => {
        const removed: Promise<void>[] = [];
        for (const client of [...clients]) {
          client.socket.close(WS_CLOSE.goingAway, 'Server shutting down');
          removed.push(remove(client));
        }
        await Promise.all(removed);
      });
      await app.register(websocket, { options: { maxPayload: MAX_CLIENT_MESSAGE } });
      // An upgrade refused before @fastify/websocket saw it (401 from access control runs first)
      // leaves its socket open: close it once the refusal is sent, or it leaks.
      app.addHook('onResponse', async (request) => {
        if (request.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket?.destroy();
      });
      app.get(
        WS_PATH,
        {
          websocket: true,
          // The access token comes in ?token= (browsers cannot set headers on a WebSocket) or in
          // the Authorization header; access.ts refuses the upgrade with 401 without a valid one.
          config: { access: 'user', allowAccessTokenQuery: true },
        },
        (socket, request) => {
          const user = currentUser(request);
          const auth = request.auth;
          if (!auth) {
            socket.close(WS_CLOSE.unauthorized, WS_ACCESS_ENDED.revoked);
            return;
          }
          const client: Client = {
            id: crypto.randomUUID(),
            user: { id: user.id, role: user.role },
            socket,
            alive: true,
            subs: new Map(),
            watching: new Set(),
            overSince: undefined,
            expiresAt: auth.expiresAt,
            tokenVersion: auth.tokenVersion,
            checkedAt: Date.now(),
            revocationCheck: undefined,
          };
          clients.add(client);
          const set = byUser.get(user.id) ?? new Set<Client>();
          set.add(client);
          byUser.set(user.id, set);
          if (user.role === 'admin') admins.add(client);

          socket.on('pong', () => (client.alive = true));
          socket.on('message', (data, isBinary) => {
            client.alive = true;
            if (isBinary) {
              send(client, { type: 'error', error: 'Messages must be JSON text' });
              return;
            }
            void onMessage(client, data.toString()).catch((err: unknown) => {
              core.app.log.warn({ err: (err as Error).message }, 'WebSocket message failed');
            });
          });
          socket.on('close', () => remove(client));
          socket.on('error', () => remove(client));
          send(client, {
            type: 'connection-established',
            clientId: client.id,
            timestamp: new Date().toISOString(),
          });
        },
      );
    },
    clientCount: () => clients.size,
    accessRevoked,
    async close() {
      clearInterval(heartbeat);
      unsubscribe();
      unsubscribeRevocations();
      const watchers = [...clients].filter((c) => c.watching.size > 0);
      for (const client of clients) client.socket.close(WS_CLOSE.goingAway, 'Server shutting down');
      await Promise.all(watchers.map((c) => presence.unwatch(c.id).catch(presenceFailed)));
      clients.clear();
      byUser.clear();
      admins.clear();
      await chain;
    },
  };
}
