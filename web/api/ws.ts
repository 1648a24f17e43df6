import {
  WS_CLOSE,
  WS_PATH,
  WS_RECONNECT_ATTEMPTS,
  WS_RECONNECT_DELAY_MS,
  wsServerMessageSchema,
  type AgentControlAction,
  type WsClientMessage,
  type WsServerMessage,
} from '../../common/agents';
import { refreshTokens } from './client';
import { getAuth } from './session';

/**
 * The browser's end of the real-time channel (rules in docs/product-rules.md):
 * - connects to `{ws|wss}://{host}/ws?token=<access token>` (or a configured base);
 * - reads `connection-established` (clientId) and `session-update` messages; a message that
 *   cannot be parsed is ignored;
 * - sends subscribe / unsubscribe / agent-control / ping; a send while disconnected is dropped;
 * - tells the server which sessions the screen shows (watch / unwatch) while the page is
 *   visible, so their checkpoints are not notified (the researcher sees them happen);
 * - reconnects at most 5 times, waiting 3 s times the attempt number, and re-subscribes after
 *   every reconnect;
 * - when the server refuses the token it tries one token refresh before reconnecting.
 */

/** Reconnect up to 5 times, 3 s times the attempt number. */
const WS_MAX_RECONNECTS = WS_RECONNECT_ATTEMPTS;
const WS_RECONNECT_BASE_MS = WS_RECONNECT_DELAY_MS;
/** Keeps idle proxies from closing the socket; the server answers with a pong. */
const WS_PING_INTERVAL_MS = 25_000;
/** Close codes that mean "your token was refused" (the runtime's 4401, and policy violation). */
const WS_AUTH_CLOSE_CODES: readonly number[] = [WS_CLOSE.unauthorized, 1008];

export type SubscriptionFilters = { sessionId?: string };
export type ClientMessage = WsClientMessage;
export type ServerMessage = WsServerMessage;

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The part of the browser WebSocket this client uses (tests pass a fake). */
export interface SocketLike {
  readyState: number;
  onopen: ((ev: Event) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string) => SocketLike;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface TeamSocketOptions {
  /** The channel's address without the token, e.g. `wss://example.org/ws`. */
  url?: string | (() => string);
  getToken?: () => string | undefined;
  refreshTokens?: () => Promise<boolean>;
  createSocket?: SocketFactory;
  timers?: Timers;
  maxReconnects?: number;
  reconnectBaseMs?: number;
  /** 0 turns the keep-alive ping off. */
  pingIntervalMs?: number;
  /**
   * Whether the page is visible now, and a way to hear when that changes (returns the remover);
   * defaults to document.visibilityState and its visibilitychange event.
   */
  visibility?: {
    isVisible(): boolean;
    onChange(listener: () => void): () => void;
  };
}

const documentVisibility = {
  isVisible: () => typeof document === 'undefined' || document.visibilityState !== 'hidden',
  onChange: (listener: () => void) => {
    if (typeof document === 'undefined') return () => undefined;
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

const OPEN = 1;

/** `{ws|wss}://{host}/ws`, or VITE_WS_BASE when the app is configured with another base. */
function defaultSocketUrl(): string {
  const configured = import.meta.env.VITE_WS_BASE as string | undefined;
  if (configured) return configured;
  const apiBase = import.meta.env.VITE_API_BASE as string | undefined;
  if (apiBase && /^https?:\/\//.test(apiBase)) {
    return `${apiBase.replace(/^http/, 'ws').replace(/\/$/, '')}${WS_PATH}`;
  }
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${WS_PATH}`;
}

const browserTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
};

function parse(data: unknown): ServerMessage | undefined {
  if (typeof data !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    // A message that cannot be parsed is ignored
    return undefined;
  }
  const parsed = wsServerMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Whether a JWT's `exp` has passed (read, not verified: the server verifies). A browser cannot
 * see the HTTP 401 of a refused upgrade, so an expired token is how it recognises one.
 */
function isTokenExpired(token: string, nowMs = Date.now()): boolean {
  const payload = token.split('.')[1];
  if (!payload) return false;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && exp * 1000 <= nowMs;
  } catch {
    return false;
  }
}

function subscriptionKey(subscriptionType: string, filters: SubscriptionFilters): string {
  return `${subscriptionType}|${filters.sessionId ?? '*'}`;
}

interface Subscription {
  subscriptionType: string;
  filters: SubscriptionFilters;
  count: number;
}

export class TeamSocket {
  private readonly opts: Required<Omit<TeamSocketOptions, 'url'>> & {
    url: () => string;
  };
  private socket: SocketLike | undefined;
  private stateValue: ConnectionState = 'idle';
  private clientIdValue: string | undefined;
  private attempts = 0;
  private refreshedThisStreak = false;
  private reconnectTimer: unknown;
  private pingTimer: unknown;
  /** Set by close(): the socket was closed on purpose and must not come back. */
  private stopped = false;
  private readonly subscriptions = new Map<string, Subscription>();
  /** Sessions shown on screen -> how many holders. */
  private readonly watched = new Map<string, number>();
  /** Whether the server was last told the page is visible (watches sent on this connection). */
  private watchingSent = false;
  private offVisibility: (() => void) | undefined;
  private readonly messageListeners = new Set<(message: ServerMessage) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();

  constructor(options: TeamSocketOptions = {}) {
    const url = options.url ?? defaultSocketUrl;
    this.opts = {
      url: typeof url === 'string' ? () => url : url,
      getToken: options.getToken ?? (() => getAuth()?.accessToken),
      refreshTokens: options.refreshTokens ?? refreshTokens,
      createSocket:
        options.createSocket ?? ((u: string) => new WebSocket(u) as unknown as SocketLike),
      timers: options.timers ?? browserTimers,
      maxReconnects: options.maxReconnects ?? WS_MAX_RECONNECTS,
      reconnectBaseMs: options.reconnectBaseMs ?? WS_RECONNECT_BASE_MS,
      pingIntervalMs: options.pingIntervalMs ?? WS_PING_INTERVAL_MS,
      visibility: options.visibility ?? documentVisibility,
    };
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  get clientId(): string | undefined {
    return this.clientIdValue;
  }

  /** Reconnect attempts made since the last successful open. */
  get reconnectAttempts(): number {
    return this.attempts;
  }

  /** Opens the connection if it is not open or opening already. */
  connect(): void {
    this.stopped = false;
    if (this.socket || this.reconnectTimer !== undefined) return;
    // A connect after giving up (or after close()) starts a fresh streak of attempts.
    this.attempts = 0;
    this.refreshedThisStreak = false;
    this.open();
  }

  /** Closes on purpose: no reconnect. Subscriptions are kept for a later connect(). */
  close(): void {
    this.stopped = true;
    this.clearReconnect();
    this.stopPing();
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.onerror = null;
      socket.onopen = null;
      socket.close(1000, 'closed by client');
    }
    this.clientIdValue = undefined;
    this.setState('closed');
  }

  /** Sends a message if the socket is open; returns false (and drops it) otherwise. */
  send(message: ClientMessage): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || this.stateValue !== 'open') return false;
    try {
      socket.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  ping(): boolean {
    return this.send({ type: 'ping' });
  }

  agentControl(action: AgentControlAction, executionId: string): boolean {
    return this.send({ type: 'agent-control', action, executionId });
  }

  /**
   * Subscribes (now if open, and again after every reconnect) and connects if needed. Returns
   * the unsubscribe function; the subscription ends when its last holder unsubscribes.
   */
  subscribe(subscriptionType: string, filters: SubscriptionFilters): () => void {
    const key = subscriptionKey(subscriptionType, filters);
    const existing = this.subscriptions.get(key);
    if (existing) {
      existing.count += 1;
    } else {
      this.subscriptions.set(key, { subscriptionType, filters, count: 1 });
      this.send({ type: 'subscribe', subscriptionType, filters });
    }
    this.connect();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const sub = this.subscriptions.get(key);
      if (!sub) return;
      sub.count -= 1;
      if (sub.count <= 0) {
        this.subscriptions.delete(key);
        this.send({ type: 'unsubscribe', subscriptionType, filters });
        if (!filters.sessionId) {
          // The server drops every subscription of the team on a team-wide unsubscribe: keep
          // the single-session ones that others still hold.
          for (const other of this.subscriptions.values()) {
            if (other.subscriptionType === subscriptionType) {
              this.send({ type: 'subscribe', subscriptionType, filters: other.filters });
            }
          }
        }
      }
    };
  }

  /**
   * The screen shows this session: while the page is visible the server knows (watch), so the
   * session's checkpoints are not notified; hidden, or once the last holder calls the returned
   * function, it does not (unwatch). Sent again after every reconnect. Connects if needed.
   */
  watch(sessionId: string): () => void {
    const held = this.watched.get(sessionId) ?? 0;
    this.watched.set(sessionId, held + 1);
    if (held === 0 && this.opts.visibility.isVisible()) {
      this.send({ type: 'watch', sessionId });
    }
    this.offVisibility ??= this.opts.visibility.onChange(() => this.visibilityChanged());
    this.connect();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const count = (this.watched.get(sessionId) ?? 1) - 1;
      if (count > 0) {
        this.watched.set(sessionId, count);
        return;
      }
      this.watched.delete(sessionId);
      this.send({ type: 'unwatch', sessionId });
      if (this.watched.size === 0) {
        this.offVisibility?.();
        this.offVisibility = undefined;
      }
    };
  }

  /** The page was hidden or shown again: unwatch or watch every shown session. */
  private visibilityChanged(): void {
    const visible = this.opts.visibility.isVisible();
    if (visible === this.watchingSent) return;
    this.watchingSent = visible;
    for (const sessionId of this.watched.keys()) {
      this.send(visible ? { type: 'watch', sessionId } : { type: 'unwatch', sessionId });
    }
  }

  /** Every parsed server message. Returns the remover. */
  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private setState(state: ConnectionState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    for (const l of [...this.stateListeners]) l(state);
  }

  private open(): void {
    const token = this.opts.getToken();
    if (!token) {
      // Signed out: nothing to connect with. A later connect() (after sign-in) tries again.
      this.setState('closed');
      return;
    }
    const base = this.opts.url();
    const url = `${base}${base.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
    let socket: SocketLike;
    try {
      socket = this.opts.createSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.setState(this.attempts > 0 ? 'reconnecting' : 'connecting');
    let opened = false;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      opened = true;
      this.attempts = 0;
      this.refreshedThisStreak = false;
      this.setState('open');
      for (const sub of this.subscriptions.values()) {
        this.send({
          type: 'subscribe',
          subscriptionType: sub.subscriptionType,
          filters: sub.filters,
        });
      }
      this.watchingSent = this.opts.visibility.isVisible();
      if (this.watchingSent) {
        for (const sessionId of this.watched.keys()) this.send({ type: 'watch', sessionId });
      }
      this.startPing();
    };
    socket.onmessage = (ev: MessageEvent) => {
      if (this.socket !== socket) return;
      const message = parse(ev.data);
      if (!message) return;
      if (message.type === 'connection-established') {
        this.clientIdValue = message.clientId;
      }
      for (const l of [...this.messageListeners]) {
        try {
          l(message);
        } catch (err) {
          console.error('WebSocket listener failed', err);
        }
      }
    };
    socket.onerror = () => {
      // The close event that follows decides about reconnecting.
    };
    socket.onclose = (ev: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.clientIdValue = undefined;
      this.stopPing();
      if (this.stopped) return;
      const refused = WS_AUTH_CLOSE_CODES.includes(ev.code) || (!opened && isTokenExpired(token));
      if (refused) {
        void this.handleAuthFailure();
      } else {
        this.scheduleReconnect();
      }
    };
  }

  /** One token refresh per failure streak; without a fresh token there is no point retrying. */
  private async handleAuthFailure(): Promise<void> {
    if (this.refreshedThisStreak) {
      this.setState('closed');
      return;
    }
    this.refreshedThisStreak = true;
    let refreshed: boolean;
    try {
      refreshed = await this.opts.refreshTokens();
    } catch {
      refreshed = false;
    }
    if (this.stopped) return;
    if (refreshed) this.scheduleReconnect();
    else this.setState('closed');
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    if (this.attempts >= this.opts.maxReconnects) {
      this.setState('closed');
      return;
    }
    this.attempts += 1;
    this.setState('reconnecting');
    const delay = this.opts.reconnectBaseMs * this.attempts;
    this.reconnectTimer = this.opts.timers.setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.stopped) this.open();
    }, delay);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== undefined) {
      this.opts.timers.clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
    }
  }

  private startPing(): void {
    this.stopPing();
    if (this.opts.pingIntervalMs > 0) {
      this.pingTimer = this.opts.timers.setInterval(() => this.ping(), this.opts.pingIntervalMs);
    }
  }

  private stopPing(): void {
    if (this.pingTimer !== undefined) {
      this.opts.timers.clearInterval(this.pingTimer);
      this.pingTimer = undefined;
    }
  }
}

let shared: TeamSocket | undefined;

/** The app's one connection (every team screen and the Agent Workflow page share it). */
export function getTeamSocket(): TeamSocket {
  shared ??= new TeamSocket();
  return shared;
}
