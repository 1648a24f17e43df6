import WebSocket from 'ws';
import type { WsServerMessage } from '../../common/agents';

/** A real WebSocket client for the /ws tests and benchmarks: collects every message. */
export interface TestSocket {
  socket: WebSocket;
  messages: WsServerMessage[];
  send(message: unknown): void;
  /** Resolves with the first message (from `from` on) that matches. */
  next<T extends WsServerMessage>(
    match: (m: WsServerMessage) => m is T,
    opts?: { timeoutMs?: number; from?: number },
  ): Promise<T>;
  waitFor(match: (m: WsServerMessage) => boolean, timeoutMs?: number): Promise<WsServerMessage>;
  close(): Promise<void>;
}

export function wsUrl(baseUrl: string, token?: string): string {
  const url = new URL('/ws', baseUrl.replace(/^http/, 'ws'));
  if (token !== undefined) url.searchParams.set('token', token);
  return url.toString();
}

/**
 * Opens /ws with the access token in ?token= (what browsers do) or, with `via: 'header'`, in the
 * Authorization header (what other clients may do).
 */
export async function connectWs(
  baseUrl: string,
  token: string,
  opts: { via?: 'query' | 'header' } = {},
): Promise<TestSocket> {
  const socket =
    opts.via === 'header'
      ? new WebSocket(wsUrl(baseUrl), { headers: { authorization: `Bearer ${token}` } })
      : new WebSocket(wsUrl(baseUrl, token));
  const messages: WsServerMessage[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as WsServerMessage);
    for (const l of listeners) l();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const waitFor = (match: (m: WsServerMessage) => boolean, timeoutMs = 10_000, from = 0) =>
    new Promise<WsServerMessage>((resolve, reject) => {
      const check = () => {
        const found = messages.slice(from).find(match);
        if (found) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(
          new Error(
            `no matching WebSocket message in ${timeoutMs} ms; got ${JSON.stringify(
              messages.slice(-5),
            )}`,
          ),
        );
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  return {
    socket,
    messages,
    send: (message) => socket.send(JSON.stringify(message)),
    next: (match, opts = {}) => waitFor(match, opts.timeoutMs, opts.from) as Promise<never>,
    waitFor: (match, timeoutMs) => waitFor(match, timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
