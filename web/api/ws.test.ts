import { describe, expect, it, vi } from 'vitest';
import { TeamSocket, type ServerMessage } from './ws';
import { fakeSocketFactory, ManualTimers } from '../teams/shared/testing/fakeSocket';

function setup(
  overrides: {
    token?: () => string | undefined;
    refresh?: () => Promise<boolean>;
  } = {},
) {
  const factory = fakeSocketFactory();
  const timers = new ManualTimers();
  const refresh = vi.fn(overrides.refresh ?? (async () => true));
  const client = new TeamSocket({
    url: 'ws://example.test/ws',
    getToken: overrides.token ?? (() => 'tok-1'),
    refreshTokens: refresh,
    createSocket: factory.create,
    timers,
    pingIntervalMs: 0,
  });
  return { client, timers, sockets: factory.sockets, refresh };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

const SESSION = '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f';
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const established = {
  type: 'connection-established',
  clientId: 'c-42',
  timestamp: '2025-01-01T00:00:00Z',
};
const update = {
  type: 'session-update',
  sessionId: SESSION,
  teamId: 'literature',
  updateType: 'log_update',
  data: { seq: 1, message: 'hello', level: 'info', timestamp: '2025-01-01T00:00:00Z' },
  status: 'processing',
  phase: 1,
  checkpoint: null,
  timestamp: '2025-01-01T00:00:00Z',
};

/** A JWT-shaped token whose exp is the given epoch second. */
function jwt(exp: number): string {
  const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  return `${b64({ alg: 'HS256' })}.${b64({ exp })}.sig`;
}

describe('TeamSocket', () => {
  it('connects to the channel with the access token and reads the client id', () => {
    const { client, sockets } = setup({ token: () => 'a b/c' });
    const seen: ServerMessage[] = [];
    client.onMessage((m) => seen.push(m));
    client.connect();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('ws://example.test/ws?token=a%20b%2Fc');
    expect(client.state).toBe('connecting');
    sockets[0]!.serverOpen();
    expect(client.state).toBe('open');
    sockets[0]!.serverSend(established);
    expect(client.clientId).toBe('c-42');
    expect(seen).toEqual([established]);
  });

  it('reconnects at most 5 times, waiting 3 s times the attempt number', () => {
    const { client, sockets, timers } = setup();
    client.connect();
    sockets[0]!.serverClose(1006);
    for (let attempt = 1; attempt <= 5; attempt++) {
      // Not a moment earlier than 3 s x attempt.
      timers.advance(3000 * attempt - 1);
      expect(sockets).toHaveLength(attempt);
      timers.advance(1);
      expect(sockets).toHaveLength(attempt + 1);
      sockets[attempt]!.serverClose(1006);
    }
    expect(timers.timeoutDelays).toEqual([3000, 6000, 9000, 12000, 15000]);
    // The fifth reconnect failed too: no sixth.
    timers.advance(60_000);
    expect(sockets).toHaveLength(6);
    expect(timers.timeoutCount).toBe(0);
    expect(client.state).toBe('closed');
  });

  it('starts counting again after a successful reconnect', () => {
    const { client, sockets, timers } = setup();
    client.connect();
    sockets[0]!.serverOpen();
    sockets[0]!.serverClose(1006);
    timers.advance(3000);
    sockets[1]!.serverClose(1006);
    timers.advance(6000);
    sockets[2]!.serverOpen();
    expect(client.reconnectAttempts).toBe(0);
    sockets[2]!.serverClose(1006);
    timers.advance(3000);
    expect(sockets).toHaveLength(4);
    expect(timers.timeoutDelays).toEqual([3000, 6000, 3000]);
  });

  it('drops sends while disconnected instead of queueing them', () => {
    const { client, sockets, timers } = setup();
    expect(client.send({ type: 'ping' })).toBe(false);
    client.connect();
    expect(client.agentControl('pause', 'e-1')).toBe(false);
    sockets[0]!.serverOpen();
    expect(sockets[0]!.sent).toEqual([]);
    expect(client.agentControl('pause', 'e-1')).toBe(true);
    sockets[0]!.serverClose(1006);
    expect(client.ping()).toBe(false);
    timers.advance(3000);
    sockets[1]!.serverOpen();
    expect(sockets[0]!.sentMessages).toEqual([
      { type: 'agent-control', action: 'pause', executionId: 'e-1' },
    ]);
    expect(sockets[1]!.sent).toEqual([]);
  });

  it('ignores messages that cannot be parsed and keeps going', () => {
    const { client, sockets } = setup();
    const seen: ServerMessage[] = [];
    client.onMessage((m) => seen.push(m));
    client.connect();
    sockets[0]!.serverOpen();
    sockets[0]!.serverSend('not json {');
    sockets[0]!.serverSend('42');
    sockets[0]!.serverSend('{"no":"type"}');
    sockets[0]!.serverSend('null');
    sockets[0]!.serverSend({ type: 'session-update', sessionId: 'not-a-uuid' });
    sockets[0]!.serverSend({ type: 'no-such-type' });
    sockets[0]!.onmessage?.(new MessageEvent('message', { data: new ArrayBuffer(4) }));
    sockets[0]!.serverSend(update);
    expect(seen).toEqual([update]);
    expect(client.state).toBe('open');
  });

  it('subscribes once open, re-subscribes after a reconnect and forgets unsubscribed filters', () => {
    const { client, sockets, timers } = setup();
    const offA = client.subscribe('literature-team', { sessionId: A });
    const offB = client.subscribe('data-team', { sessionId: B });
    // A second holder of the same subscription shares it.
    const offA2 = client.subscribe('literature-team', { sessionId: A });
    expect(sockets).toHaveLength(1);
    sockets[0]!.serverOpen();
    expect(sockets[0]!.sentMessages).toEqual([
      { type: 'subscribe', subscriptionType: 'literature-team', filters: { sessionId: A } },
      { type: 'subscribe', subscriptionType: 'data-team', filters: { sessionId: B } },
    ]);
    offB();
    offA();
    expect(sockets[0]!.sentMessages.at(-1)).toEqual({
      type: 'unsubscribe',
      subscriptionType: 'data-team',
      filters: { sessionId: B },
    });
    sockets[0]!.serverClose(1006);
    timers.advance(3000);
    sockets[1]!.serverOpen();
    expect(sockets[1]!.sentMessages).toEqual([
      { type: 'subscribe', subscriptionType: 'literature-team', filters: { sessionId: A } },
    ]);
    offA2();
    expect(sockets[1]!.sentMessages.at(-1)).toEqual({
      type: 'unsubscribe',
      subscriptionType: 'literature-team',
      filters: { sessionId: A },
    });
  });

  it('watches the shown session while the page is visible, again after a reconnect', () => {
    const factory = fakeSocketFactory();
    const timers = new ManualTimers();
    let visible = true;
    const listeners = new Set<() => void>();
    const client = new TeamSocket({
      url: 'ws://example.test/ws',
      getToken: () => 'tok-1',
      createSocket: factory.create,
      timers,
      pingIntervalMs: 0,
      visibility: {
        isVisible: () => visible,
        onChange: (l) => {
          listeners.add(l);
          return () => listeners.delete(l);
        },
      },
    });
    const sockets = factory.sockets;
    const setVisible = (v: boolean) => {
      visible = v;
      for (const l of [...listeners]) l();
    };
    const off = client.watch(A);
    const off2 = client.watch(A);
    sockets[0]!.serverOpen();
    expect(sockets[0]!.sentMessages).toEqual([{ type: 'watch', sessionId: A }]);
    // Another tab in front: the researcher no longer sees it.
    setVisible(false);
    expect(sockets[0]!.sentMessages.at(-1)).toEqual({ type: 'unwatch', sessionId: A });
    setVisible(true);
    expect(sockets[0]!.sentMessages.at(-1)).toEqual({ type: 'watch', sessionId: A });
    sockets[0]!.serverClose(1006);
    timers.advance(3000);
    sockets[1]!.serverOpen();
    expect(sockets[1]!.sentMessages).toEqual([{ type: 'watch', sessionId: A }]);
    // Hidden during a reconnect: nothing is watched on the new connection.
    setVisible(false);
    sockets[1]!.serverClose(1006);
    timers.advance(3000);
    sockets[2]!.serverOpen();
    expect(sockets[2]!.sentMessages).toEqual([]);
    setVisible(true);
    expect(sockets[2]!.sentMessages).toEqual([{ type: 'watch', sessionId: A }]);
    // The screen leaves the session when its last holder does.
    off();
    expect(sockets[2]!.sentMessages).toHaveLength(1);
    off2();
    expect(sockets[2]!.sentMessages.at(-1)).toEqual({ type: 'unwatch', sessionId: A });
    expect(listeners.size).toBe(0);
  });

  it('keeps single-session subscriptions when the team-wide one of the same team ends', () => {
    const { client, sockets } = setup();
    const offAll = client.subscribe('literature-team', {});
    client.subscribe('literature-team', { sessionId: A });
    client.subscribe('data-team', { sessionId: B });
    sockets[0]!.serverOpen();
    offAll();
    expect(sockets[0]!.sentMessages.slice(3)).toEqual([
      { type: 'unsubscribe', subscriptionType: 'literature-team', filters: {} },
      { type: 'subscribe', subscriptionType: 'literature-team', filters: { sessionId: A } },
    ]);
  });

  it('on an auth refusal refreshes the token once, then reconnects with the new token', async () => {
    let token = 'old';
    const { client, sockets, timers, refresh } = setup({
      token: () => token,
      refresh: async () => {
        token = 'new';
        return true;
      },
    });
    client.connect();
    sockets[0]!.serverClose(4401);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    timers.advance(3000);
    expect(sockets[1]!.url).toBe('ws://example.test/ws?token=new');
    // Refused again in the same streak: no second refresh, no more attempts.
    sockets[1]!.serverClose(4401);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    timers.advance(60_000);
    expect(sockets).toHaveLength(2);
    expect(client.state).toBe('closed');
  });

  it('treats a failed upgrade with an expired token as a refusal and refreshes first', async () => {
    let token = jwt(Math.floor(Date.now() / 1000) - 60);
    const fresh = jwt(Math.floor(Date.now() / 1000) + 900);
    const { client, sockets, timers, refresh } = setup({
      token: () => token,
      refresh: async () => {
        token = fresh;
        return true;
      },
    });
    client.connect();
    sockets[0]!.serverClose(1006);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    timers.advance(3000);
    expect(sockets[1]!.url).toContain(encodeURIComponent(fresh));
    // A network drop with a valid token is not a refusal: no refresh.
    sockets[1]!.serverClose(1006);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    timers.advance(6000);
    expect(sockets).toHaveLength(3);
  });

  it('does not reconnect when the token refresh fails', async () => {
    const { client, sockets, timers, refresh } = setup({ refresh: async () => false });
    client.connect();
    sockets[0]!.serverClose(1008);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);
    expect(client.state).toBe('closed');
  });

  it('does not reconnect after close() and does not connect without a token', () => {
    const { client, sockets, timers } = setup();
    client.connect();
    sockets[0]!.serverOpen();
    client.close();
    expect(sockets[0]!.closedByClient).toBe(true);
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);

    const signedOut = setup({ token: () => undefined });
    signedOut.client.connect();
    expect(signedOut.sockets).toHaveLength(0);
    expect(signedOut.client.state).toBe('closed');
  });

  it('sends a keep-alive ping while open', () => {
    const factory = fakeSocketFactory();
    const timers = new ManualTimers();
    const client = new TeamSocket({
      url: 'ws://example.test/ws',
      getToken: () => 't',
      createSocket: factory.create,
      timers,
      pingIntervalMs: 1000,
    });
    client.connect();
    factory.sockets[0]!.serverOpen();
    timers.advance(2500);
    expect(factory.sockets[0]!.sentMessages).toEqual([{ type: 'ping' }, { type: 'ping' }]);
    factory.sockets[0]!.serverClose(1006);
    timers.advance(1000);
    expect(factory.sockets[0]!.sent).toHaveLength(2);
  });
});
