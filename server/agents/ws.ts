import crypto from 'node:crypto';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import {
  WS_CLOSE,
  WS_PATH,
  teamIdOfSubscription,
  wsClientMessageSchema,
  type SessionUpdate,
  type WsServerMessage,
} from '../../common/agents';
import type { Api } from '../context';
import { AppError } from '../platform/errors';
import { currentUser } from '../platform/access';
import { CHANNELS, hydrateUpdate, type RuntimeCore, type UpdateEnvelope } from './core';
import type { SessionActor, SessionService } from './service';

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

interface Client {
  id: string;
  user: SessionActor;
  socket: WebSocket;
  alive: boolean;
  /** teamId -> session ids, or ALL for every session of the caller in that team. */
  subs: Map<string, Set<string>>;
  /** Since when its unsent data has been over the limit. */
  overSince: number | undefined;
  /** When the access token it connected with expires (ms); then it must reconnect. */
  expiresAt: number;
}

/** The `exp` of an access token access control has already verified, in ms. */
function tokenExpiry(token: unknown): number {
  if (typeof token !== 'string') return Number.POSITIVE_INFINITY;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export interface WsHub {
  register(app: Api): Promise<void>;
  /** Connected clients (benchmarks and tests). */
  clientCount(): number;
  close(): Promise<void>;
}

export function createWsHub(
  core: RuntimeCore,
  sessions: SessionService,
  opts: { heartbeatMs: number; maxBufferedBytes: number },
): WsHub {
  const clients = new Set<Client>();
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

  function send(client: Client, message: WsServerMessage | string): void {
    const socket = client.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (dropIfSlow(client)) return;
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  function matches(client: Client, update: SessionUpdate, ownerId: string): boolean {
    const ids = client.subs.get(update.teamId);
    if (!ids) return false;
    if (ids.has(update.sessionId))
      return client.user.id === ownerId || client.user.role === 'admin';
    return ids.has(ALL) && client.user.id === ownerId;
  }

  function deliver(ownerId: string, update: SessionUpdate): void {
    let text: string | undefined;
    const targets = new Set<Client>(byUser.get(ownerId) ?? []);
    for (const a of admins) targets.add(a);
    for (const client of targets) {
      if (!matches(client, update, ownerId)) continue;
      text ??= JSON.stringify({ type: 'session-update', ...update });
      send(client, text);
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
        deliver(envelope.ownerId, await hydrateUpdate(core, envelope));
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
        client.socket.close(WS_CLOSE.unauthorized, 'Access token expired');
        remove(client);
        continue;
      }
      client.alive = false;
      try {
        client.socket.ping();
      } catch {
        client.socket.terminate();
      }
    }
  }, opts.heartbeatMs);
  heartbeat.unref();

  function remove(client: Client): void {
    clients.delete(client);
    admins.delete(client);
    const set = byUser.get(client.user.id);
    set?.delete(client);
    if (set && set.size === 0) byUser.delete(client.user.id);
  }

  async function onMessage(client: Client, raw: string): Promise<void> {
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
          !['subscribe', 'unsubscribe', 'agent-control', 'ping'].includes(type)
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
      case 'agent-control': {
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
          // The access token comes in ?token= (browsers cannot set headers on a WebSocket);
          // access.ts refuses the upgrade with 401 without a valid one.
          config: { access: 'user', allowAccessTokenQuery: true },
        },
        (socket, request) => {
          const user = currentUser(request);
          const client: Client = {
            id: crypto.randomUUID(),
            user: { id: user.id, role: user.role },
            socket,
            alive: true,
            subs: new Map(),
            overSince: undefined,
            expiresAt: tokenExpiry((request.query as Record<string, unknown>).token),
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
    async close() {
      clearInterval(heartbeat);
      unsubscribe();
      for (const client of clients) client.socket.close(WS_CLOSE.goingAway, 'Server shutting down');
      clients.clear();
      byUser.clear();
      admins.clear();
      await chain;
    },
  };
}
