import net from 'node:net';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  LogEntry,
  LogsReply,
  WsServerMessage,
  WsSessionUpdateMessage,
} from '../../../common/agents';
import { createSiblingApp, createTestApp, createUser, type TestApp } from '../../../test/app';
import { postgresOnly } from '../../../test/requirements';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { connectWs, wsUrl, type TestSocket } from '../../../test/teams/ws-client';
import { users } from '../../db/schema';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';

/**
 * The real-time channel with real clients (the `ws` package) against a listening server:
 * authentication, delivery only of the caller's sessions, filters, order, ping/pong, control,
 * reconnect, heartbeats and slow clients.
 */

let t: TestApp;
let baseUrl: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {
      WS_HEARTBEAT_SECONDS: '2',
      WS_MAX_BUFFERED_BYTES: '1048576',
    },
    { extraTeams: [runtimeTestTeam] },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await t?.close();
});

async function user() {
  const u = await createUser(t.app);
  const connect = async () => {
    const s = await connectWs(baseUrl, u.accessToken);
    open.push(s);
    return s;
  };
  return { ...u, c: sessionClient(t.app, u.accessToken), connect };
}

const isUpdate = (m: WsServerMessage): m is WsSessionUpdateMessage => m.type === 'session-update';
const updatesOf = (s: TestSocket, sessionId: string) =>
  s.messages.filter(isUpdate).filter((m) => m.sessionId === sessionId);

async function subscribe(s: TestSocket, filters: { sessionId?: string } = {}) {
  const from = s.messages.length;
  s.send({ type: 'subscribe', subscriptionType: 'runtime-test-team', filters });
  return s.next((m): m is WsServerMessage => m.type === 'subscribed' || m.type === 'error', {
    from,
  });
}

/** Refused upgrade: resolves with the HTTP status. */
function refusedStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => {
      // The server closes the connection after refusing (it must not stay open).
      res.socket.once('close', () => resolve(res.statusCode ?? 0));
      res.resume();
    });
    ws.on('open', () => reject(new Error('connection was accepted')));
    ws.on('error', () => undefined);
  });
}

describe('/ws authentication', () => {
  it('refuses a connection without a token or with a bad one (401)', async () => {
    expect(await refusedStatus(wsUrl(baseUrl))).toBe(401);
    expect(await refusedStatus(wsUrl(baseUrl, 'not-a-token'))).toBe(401);
    expect(await refusedStatus(wsUrl(baseUrl, ''))).toBe(401);
  });

  it('a valid token connects and gets connection-established with a clientId', async () => {
    const u = await user();
    const s = await u.connect();
    const first = await s.waitFor((m) => m.type === 'connection-established');
    expect(first).toMatchObject({ type: 'connection-established', clientId: expect.any(String) });
  });

  it('closes the connection with 4401 when its access token expires', async () => {
    const u = await user();
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, u.id));
    const shortLived = await t.ctx.signer.sign(
      { sub: u.id, purpose: 'access', ver: row!.tokenVersion },
      2,
    );
    const s = await connectWs(baseUrl, shortLived);
    open.push(s);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
      s.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    expect(closed).toEqual({ code: 4401, reason: 'Access token expired' });
    // The expired token no longer connects.
    expect(await refusedStatus(wsUrl(baseUrl, shortLived))).toBe(401);
  });

  it('the token in the URL never reaches the request log', async () => {
    const { scrubUrl } = await import('../../platform/logging');
    expect(scrubUrl('/ws?token=eyJhbGciOi.secret.sig')).toBe('/ws?token=%5Bredacted%5D');
  });
});

describe('/ws messages', () => {
  it('answers ping with pong, and bad messages with an error', async () => {
    const s = await (await user()).connect();
    s.send({ type: 'ping' });
    expect(await s.waitFor((m) => m.type === 'pong')).toMatchObject({
      timestamp: expect.any(String),
    });
    s.socket.send('not json');
    expect(await s.waitFor((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: 'Messages must be JSON objects',
    });
    s.send({ type: 'dance' });
    await s.waitFor((m) => m.type === 'error' && m.error === 'Unknown message type: dance');
    s.send({ type: 'subscribe', subscriptionType: 'nothing-team' });
    await s.waitFor(
      (m) => m.type === 'error' && m.error === 'Unknown subscription type: nothing-team',
    );
    s.send({ type: 'agent-control', action: 'explode', executionId: 'x' });
    await s.waitFor(
      (m) => m.type === 'error' && m.error.startsWith('Invalid agent-control message'),
    );
  });

  it('delivers every update of a run in order: logs by sequence, then phase, then checkpoint', async () => {
    const u = await user();
    const s = await u.connect();
    expect((await subscribe(s)).type).toBe('subscribed');
    const id = await u.c.startTest('ordered updates');
    await u.c.waitFor(id, waitingAt(1));
    await s.waitFor(
      (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'checkpoint_reached',
    );
    const updates = updatesOf(s, id);
    expect(updates.map((m) => m.updateType)).toEqual([
      'log_update', // Started ... session
      'log_update', // Starting phase 1/4
      'log_update', // Collected 2 items
      'log_update', // Completed phase 1/4
      'phase_completed',
      'log_update', // Waiting for your feedback
      'checkpoint_reached',
    ]);
    const seqs = updates
      .filter((m) => m.updateType === 'log_update')
      .map((m) => (m.data as LogEntry).seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    // The socket saw exactly what the logs endpoint returns.
    const logs = (await u.c.logs(id)).json() as LogsReply;
    expect(
      updates.filter((m) => m.updateType === 'log_update').map((m) => (m.data as LogEntry).message),
    ).toEqual(logs.logs);
    const checkpoint = updates.at(-1)!;
    expect(checkpoint).toMatchObject({
      sessionId: id,
      teamId: 'runtime-test',
      status: 'waiting_for_input',
      phase: 1,
      checkpoint: 1,
      data: { phase: 1, checkpoint: 1, checkpointData: { items: ['ordered', 'updates'] } },
      timestamp: expect.any(String),
    });

    const from = s.messages.length;
    await u.c.feedback(id, 'Approved');
    const fb = await s.next(
      (m): m is WsSessionUpdateMessage => isUpdate(m) && m.updateType === 'feedback_submitted',
      { from },
    );
    expect(fb).toMatchObject({
      status: 'processing',
      phase: 2,
      data: { feedback: 'Approved', approved: true, checkpoint: 1, phase: 1 },
    });
    await u.c.action(id, 'cancel');
    const err = await s.next(
      (m): m is WsSessionUpdateMessage => isUpdate(m) && m.updateType === 'error',
      { from },
    );
    expect(err).toMatchObject({ status: 'error', data: { error: 'Cancelled by the user' } });
  });

  it('many quick log lines reach a socket in order, on another process too (PostgreSQL)', async () => {
    // Scaled out, a socket on a process that runs no phases gets them over LISTEN/NOTIFY, after
    // the running process's queue sent them in batches; embedded, this process's own socket.
    const sibling = postgresOnly
      ? undefined
      : await createSiblingApp(t, { extraTeams: [runtimeTestTeam] });
    try {
      let url = baseUrl;
      if (sibling) {
        await sibling.app.listen({ port: 0, host: '127.0.0.1' });
        url = `http://127.0.0.1:${(sibling.app.server.address() as AddressInfo).port}`;
      }
      const u = await user();
      const s = await connectWs(url, u.accessToken);
      open.push(s);
      expect((await subscribe(s)).type).toBe('subscribed');
      const lines = 300;
      const id = await u.c.startTest('many lines', { logLines: lines });
      await u.c.waitFor(id, waitingAt(1), 60_000);
      await s.waitFor(
        (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'checkpoint_reached',
        60_000,
      );
      const updates = updatesOf(s, id);
      const logs = updates.filter((m) => m.updateType === 'log_update');
      // Started, Starting phase 1/4, the lines, Collected, Completed, Waiting.
      expect(logs.map((m) => (m.data as LogEntry).seq)).toEqual(
        Array.from({ length: lines + 5 }, (_, i) => i + 1),
      );
      expect((logs[2]!.data as LogEntry).message).toBe('Line 1');
      expect(updates.map((m) => m.updateType).slice(-4)).toEqual([
        'log_update', // Completed phase 1/4
        'phase_completed',
        'log_update', // Waiting for your feedback
        'checkpoint_reached',
      ]);
    } finally {
      await sibling?.close();
    }
  }, 120_000);

  it('process_error and process_completed reach the socket', async () => {
    const u = await user();
    const s = await u.connect();
    await subscribe(s);
    const failing = await u.c.startTest('fails', { failAt: 'analyse' });
    await u.c.waitFor(failing, waitingAt(1));
    await u.c.feedback(failing, 'Approved');
    const pe = await s.waitFor(
      (m) => isUpdate(m) && m.sessionId === failing && m.updateType === 'process_error',
    );
    expect(pe).toMatchObject({
      status: 'error',
      data: { error: 'Analyse failed: the test team was told to fail in phase analyse', phase: 2 },
    });

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/agents/runtime-test-quick/execute',
      headers: { authorization: `Bearer ${u.accessToken}` },
      payload: { input: { topic: 'quick' } },
    });
    const quick = res.json().execution.executionId as string;
    const done = await s.waitFor(
      (m) => isUpdate(m) && m.sessionId === quick && m.updateType === 'process_completed',
    );
    expect(done).toMatchObject({ status: 'completed', phase: 2 });
    expect((done as WsSessionUpdateMessage).data).toMatchObject({
      finalOutputs: { summary: 'quick: 1 phases, 0 feedback' },
    });
  });
});

describe('/ws delivery rules', () => {
  it("delivers only the caller's sessions, and only the subscribed session when filtered", async () => {
    const a = await user();
    const b = await user();
    const sa = await a.connect();
    const sb = await b.connect();
    const sFiltered = await a.connect();
    await subscribe(sa);
    await subscribe(sb);

    const first = await a.c.startTest('first');
    const second = await a.c.startTest('second');
    await a.c.waitFor(first, waitingAt(1));
    await a.c.waitFor(second, waitingAt(1));
    expect(await subscribe(sFiltered, { sessionId: second })).toMatchObject({
      type: 'subscribed',
      filters: { sessionId: second },
    });
    // Someone else's session cannot be subscribed to: it does not exist for them.
    expect(await subscribe(sb, { sessionId: first })).toEqual({
      type: 'error',
      error: 'Session not found',
    });

    // Both sessions run their first phase again.
    await a.c.feedback(first, 'again');
    await a.c.feedback(second, 'again');
    const rerun = (id: string) => (m: WsServerMessage) =>
      isUpdate(m) &&
      m.sessionId === id &&
      m.updateType === 'checkpoint_reached' &&
      (m.data as { checkpointData: { revision: number } }).checkpointData.revision === 1;
    await sa.waitFor(rerun(first));
    await sa.waitFor(rerun(second));
    await sFiltered.waitFor(rerun(second));
    await new Promise((r) => setTimeout(r, 200));
    expect(updatesOf(sFiltered, first)).toEqual([]);
    expect(updatesOf(sFiltered, second).length).toBeGreaterThan(3);
    expect(sb.messages.filter(isUpdate)).toEqual([]);

    // Unsubscribing stops delivery.
    sa.send({ type: 'unsubscribe', subscriptionType: 'runtime-test-team' });
    await sa.waitFor((m) => m.type === 'unsubscribed');
    const before = sa.messages.length;
    await a.c.feedback(first, 'Approved');
    await a.c.waitFor(first, waitingAt(2));
    await new Promise((r) => setTimeout(r, 200));
    expect(sa.messages.slice(before).filter(isUpdate)).toEqual([]);
    await a.c.action(first, 'cancel');
    await a.c.action(second, 'cancel');
  });

  it('agent-control cancels, pauses and resumes only sessions the caller may drive', async () => {
    const a = await user();
    const b = await user();
    const sa = await a.connect();
    const sb = await b.connect();
    const id = await a.c.startTest('controlled', { delayMs: 500 });

    sb.send({ type: 'agent-control', action: 'cancel', executionId: id });
    expect(await sb.waitFor((m) => m.type === 'agent-control-result')).toEqual({
      type: 'agent-control-result',
      action: 'cancel',
      executionId: id,
      success: false,
      error: 'Session not found',
    });

    sa.send({ type: 'agent-control', action: 'pause', executionId: id });
    expect(
      await sa.waitFor((m) => m.type === 'agent-control-result' && m.action === 'pause'),
    ).toMatchObject({ success: true, status: 'idle' });
    sa.send({ type: 'agent-control', action: 'resume', executionId: id });
    expect(
      await sa.waitFor((m) => m.type === 'agent-control-result' && m.action === 'resume'),
    ).toMatchObject({ success: true, status: 'processing' });
    sa.send({ type: 'agent-control', action: 'cancel', executionId: id });
    expect(
      await sa.waitFor((m) => m.type === 'agent-control-result' && m.action === 'cancel'),
    ).toMatchObject({ success: true, status: 'error' });
    expect((await a.c.session(id)).error).toBe('Cancelled by the user');
  });

  it('a client that reconnects resubscribes and fills the gap from the logs endpoint', async () => {
    const u = await user();
    const first = await u.connect();
    await subscribe(first);
    const id = await u.c.startTest('reconnect');
    await u.c.waitFor(id, waitingAt(1));
    await first.waitFor((m) => isUpdate(m) && m.updateType === 'checkpoint_reached');
    const seen = updatesOf(first, id).filter((m) => m.updateType === 'log_update');
    const lastSeq = (seen.at(-1)!.data as LogEntry).seq;
    await first.close();

    // While disconnected the session moves on.
    await u.c.feedback(id, 'Approved');
    await u.c.waitFor(id, waitingAt(2));

    const second = await u.connect();
    const established = await second.waitFor((m) => m.type === 'connection-established');
    expect(established).not.toEqual(first.messages[0]);
    await subscribe(second, { sessionId: id });
    const gap = (await u.c.logs(id, `?after=${lastSeq}`)).json() as LogsReply;
    expect(gap.entries[0]!.seq).toBe(lastSeq + 1);
    expect(gap.logs).toContain('Checkpoint 1 approved');

    await u.c.feedback(id, 'Approved');
    const done = await second.waitFor(
      (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'process_completed',
    );
    expect(done).toMatchObject({ status: 'completed' });
    const newLogs = updatesOf(second, id)
      .filter((m) => m.updateType === 'log_update')
      .map((m) => (m.data as LogEntry).seq);
    expect(newLogs[0]).toBe(gap.cursor + 1);
  });
});

describe('/ws dead and slow clients', () => {
  /** Opens /ws with a raw TCP socket that does the handshake and then does nothing. */
  async function rawClient(token: string): Promise<net.Socket> {
    const { port } = new URL(baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `GET /ws?token=${encodeURIComponent(token)} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        'Upgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await new Promise<void>((resolve) => {
      let head = '';
      const onData = (d: Buffer) => {
        head += d.toString('latin1');
        if (head.includes('\r\n\r\n')) {
          socket.off('data', onData);
          expect(head).toMatch(/^HTTP\/1\.1 101/);
          resolve();
        }
      };
      socket.on('data', onData);
    });
    return socket;
  }

  it('heartbeats close a socket that never answers pings', async () => {
    const u = await user();
    const socket = await rawClient(u.accessToken);
    socket.resume(); // reads (and ignores) the pings, never sends a pong
    const closedAfter = await new Promise<number>((resolve) => {
      const started = Date.now();
      socket.once('close', () => resolve(Date.now() - started));
    });
    // Heartbeat every 2 s: one ping unanswered, closed at the next beat.
    expect(closedAfter).toBeLessThan(6000);
  });

  it('a client that stops reading is dropped; others keep their updates', async () => {
    const u = await user();
    const healthy = await u.connect();
    await subscribe(healthy);
    const slow = await rawClient(u.accessToken);
    /** A masked client text frame (what a browser sends). */
    const frame = (message: unknown) => {
      const payload = Buffer.from(JSON.stringify(message));
      const mask = Buffer.from([1, 2, 3, 4]);
      const header = Buffer.from([0x81, 0x80 | payload.length]);
      const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
      return Buffer.concat([header, mask, masked]);
    };
    slow.write(frame({ type: 'subscribe', subscriptionType: 'runtime-test-team' }));
    slow.pause(); // stops reading: the server's unsent data grows
    // It keeps talking, so the heartbeat counts it alive: only its unread data can drop it.
    const keepAlive = setInterval(() => {
      if (!slow.destroyed) slow.write(frame({ type: 'ping' }));
    }, 300);
    let closed = false;
    slow.on('close', () => (closed = true));
    slow.on('error', () => undefined);

    // Each run of the collect phase sends two updates of about 1.5 MB each: more than the
    // 1 MiB limit, which a healthy client drains at once and the paused one never does.
    const id = await u.c.startTest('big', { padBytes: 1_500_000 });
    // Driven by the healthy socket's updates, not by polling (each status reply is 1.5 MB).
    const checkpoints = () =>
      updatesOf(healthy, id).filter((x) => x.updateType === 'checkpoint_reached').length;
    for (let i = 1; i <= 3; i++) {
      await healthy.waitFor(() => checkpoints() === i, 30_000);
      await u.c.feedback(id, `again ${i}`);
    }
    await healthy.waitFor(() => checkpoints() === 4, 30_000);
    // The paused client stays over the limit: the heartbeat drops it after the grace period.
    await new Promise((r) => setTimeout(r, 6500));
    clearInterval(keepAlive);
    slow.resume();
    await new Promise((r) => setTimeout(r, 1500));
    expect(closed).toBe(true);
    expect(healthy.socket.readyState).toBe(WebSocket.OPEN);
    healthy.send({ type: 'ping' });
    await healthy.waitFor((m) => m.type === 'pong');
    await u.c.action(id, 'cancel');
  }, 90_000);
});
