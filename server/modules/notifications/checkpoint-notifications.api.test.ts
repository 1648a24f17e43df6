import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_FEEDBACK, type WsServerMessage } from '../../../common/agents';
import type { NotificationGroup, NotificationItem } from '../../../common/notifications';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { client } from '../../../test/client';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';
import { connectWs, type TestSocket } from '../../../test/teams/ws-client';

/**
 * Checkpoint notifications: none while the researcher has the session on screen (the team
 * screen's `watch` over the WebSocket, recorded in session_watchers), otherwise one per session
 * and checkpoint however often it is reached; the menu's groups put a session's together.
 */

let t: TestApp;
let baseUrl: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ WS_HEARTBEAT_SECONDS: '1' }, { extraTeams: [runtimeTestTeam] });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await t?.close();
});

async function researcher() {
  const u = await createUser(t.app);
  const api = client(t.app, u.accessToken);
  await api.post('/api/notifications/read-all');
  return { ...u, api, sessions: sessionClient(t.app, u.accessToken) };
}

async function checkpointNotices(
  api: ReturnType<typeof client>,
  sessionId: string,
): Promise<NotificationItem[]> {
  const res = await api.get('/api/notifications?limit=100');
  expect(res.status).toBe(200);
  return (res.body.data.notifications as NotificationItem[]).filter(
    (n) => n.kind === 'session_waiting' && n.sessionId === sessionId,
  );
}

async function watch(token: string, sessionId: string): Promise<TestSocket> {
  const s = await connectWs(baseUrl, token);
  sockets.push(s);
  s.send({ type: 'watch', sessionId });
  const ack = await s.waitFor((m) => m.type === 'watching' || m.type === 'error');
  expect(ack).toEqual({ type: 'watching', sessionId, watching: true });
  return s;
}

const waitingAck = (sessionId: string, watching: boolean) => (m: WsServerMessage) =>
  m.type === 'watching' && m.sessionId === sessionId && m.watching === watching;

describe('checkpoint notifications', () => {
  it('notifies a checkpoint exactly once when the session is not on screen', async () => {
    const u = await researcher();
    const id = await u.sessions.startTest('money demand');
    await u.sessions.waitFor(id, waitingAt(1));
    await expect.poll(async () => (await checkpointNotices(u.api, id)).length).toBe(1);
    const notices = await checkpointNotices(u.api, id);
    expect(notices[0]).toMatchObject({
      title: expect.stringContaining('your review is needed'),
      message: expect.stringContaining('Checkpoint 1'),
      link: expect.stringContaining(id),
      read: false,
    });
  });

  it('does not notify a checkpoint of the session on screen, and does once it is left', async () => {
    const u = await researcher();
    // Slow phases, so the screen watches before the first checkpoint is reached.
    const id = await u.sessions.startTest('labour supply', { delayMs: 400 });
    const s = await watch(u.accessToken, id);
    await u.sessions.waitFor(id, waitingAt(1));
    // The runtime notifies after the state is written; give it the moment it takes.
    await new Promise((r) => setTimeout(r, 300));
    expect(await checkpointNotices(u.api, id)).toEqual([]);

    // The screen leaves the session: the next checkpoint is notified.
    s.send({ type: 'unwatch', sessionId: id });
    await s.waitFor(waitingAck(id, false));
    expect((await u.sessions.feedback(id, APPROVAL_FEEDBACK)).statusCode).toBe(200);
    await u.sessions.waitFor(id, waitingAt(2));
    await expect.poll(async () => (await checkpointNotices(u.api, id)).length).toBe(1);
    expect((await checkpointNotices(u.api, id))[0]!.message).toContain('Checkpoint 2');
  });

  it('a closed connection stops counting as watching', async () => {
    const u = await researcher();
    const id = await u.sessions.startTest('tax incidence', { delayMs: 600 });
    const s = await watch(u.accessToken, id);
    await s.close();
    await u.sessions.waitFor(id, waitingAt(1));
    await expect.poll(async () => (await checkpointNotices(u.api, id)).length).toBe(1);
  });

  it('another user watching the session does not silence the owner’s notification', async () => {
    const owner = await researcher();
    const other = await researcher();
    const id = await owner.sessions.startTest('trade costs', { delayMs: 300 });
    const s = await connectWs(baseUrl, other.accessToken);
    sockets.push(s);
    s.send({ type: 'watch', sessionId: id });
    // Not theirs to see: refused like a subscription.
    expect(await s.waitFor((m) => m.type === 'watching' || m.type === 'error')).toEqual({
      type: 'error',
      error: 'Session not found',
    });
    await owner.sessions.waitFor(id, waitingAt(1));
    await expect.poll(async () => (await checkpointNotices(owner.api, id)).length).toBe(1);
  });

  it('a checkpoint reached again (revision) still gives one notification', async () => {
    const u = await researcher();
    const id = await u.sessions.startTest('price rigidity');
    await u.sessions.waitFor(id, waitingAt(1));
    for (const feedback of ['Add wage rigidity', 'And menu costs']) {
      const before = (await u.sessions.session(id)).updatedAt;
      expect((await u.sessions.feedback(id, feedback)).statusCode).toBe(200);
      await u.sessions.waitFor(id, (s) => waitingAt(1)(s) && s.updatedAt !== before);
    }
    await new Promise((r) => setTimeout(r, 200));
    const notices = await checkpointNotices(u.api, id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain('Checkpoint 1');
  });

  it('groups notifications by session, with counts, and marks a session’s read together', async () => {
    const u = await researcher();
    const a = await u.sessions.startTest('inflation');
    await u.sessions.waitFor(a, waitingAt(1));
    await u.sessions.feedback(a, APPROVAL_FEEDBACK);
    await u.sessions.waitFor(a, waitingAt(2));
    const b = await u.sessions.startTest('growth');
    await u.sessions.waitFor(b, waitingAt(1));
    await expect.poll(async () => (await checkpointNotices(u.api, a)).length).toBe(2);
    await expect.poll(async () => (await checkpointNotices(u.api, b)).length).toBe(1);
    await t.ctx.notify(u.id, { kind: 'system', title: 'Maintenance', message: 'Tonight' });

    const res = await u.api.get('/api/notifications/groups');
    expect(res.status).toBe(200);
    const groups = res.body.data.groups as NotificationGroup[];
    expect(groups.map((g) => [g.key, g.count, g.unreadCount])).toEqual([
      [groups[0]!.latest.id, 1, 1], // the system notice, newest
      [b, 1, 1],
      [a, 2, 2],
      [groups[3]!.latest.id, 1, 0], // 'account approved', read at the start
    ]);
    expect(groups[0]!.sessionId).toBeUndefined();
    expect(groups[0]!.latest.title).toBe('Maintenance');
    expect(groups[2]!.latest.message).toContain('Checkpoint 2');
    expect(res.body.data).toMatchObject({ total: 4, unreadCount: 4 });

    const read = await u.api.post(`/api/notifications/sessions/${a}/read`);
    expect(read.status).toBe(200);
    expect(read.body.data.unreadCount).toBe(2);
    const after = (await u.api.get('/api/notifications/groups')).body.data
      .groups as NotificationGroup[];
    expect(after.find((g) => g.key === a)).toMatchObject({ count: 2, unreadCount: 0 });
    const unreadOnly = await u.api.get('/api/notifications/groups?unreadOnly=true');
    expect(unreadOnly.body.data.groups.map((g: NotificationGroup) => g.key)).not.toContain(a);
    // Paging counts groups.
    const page = await u.api.get('/api/notifications/groups?limit=1&offset=1');
    expect(page.body.data).toMatchObject({ total: 4, limit: 1, offset: 1 });
    expect(page.body.data.groups.map((g: NotificationGroup) => g.key)).toEqual([b]);
  });

  it('refuses bad session ids and other users’ sessions on the group read', async () => {
    const u = await researcher();
    const other = await researcher();
    const id = await u.sessions.startTest('fiscal rules');
    await u.sessions.waitFor(id, waitingAt(1));
    await expect.poll(async () => (await checkpointNotices(u.api, id)).length).toBe(1);
    expect((await other.api.post(`/api/notifications/sessions/${id}/read`)).status).toBe(404);
    expect((await u.api.post('/api/notifications/sessions/nope/read')).status).toBe(400);
    expect((await u.api.get('/api/notifications/groups?limit=0')).status).toBe(400);
    // The owner's stays unread.
    expect((await checkpointNotices(u.api, id))[0]!.read).toBe(false);
  });

  it('answers a watch of an unknown session or a bad id with an error', async () => {
    const u = await researcher();
    const s = await connectWs(baseUrl, u.accessToken);
    sockets.push(s);
    s.send({ type: 'watch', sessionId: '00000000-0000-4000-8000-000000000000' });
    expect(await s.waitFor((m) => m.type === 'watching' || m.type === 'error')).toEqual({
      type: 'error',
      error: 'Session not found',
    });
    const from = s.messages.length;
    s.send({ type: 'watch', sessionId: 'x' });
    const err = await s.next((m): m is WsServerMessage => m.type === 'error', { from });
    expect(err).toMatchObject({ error: expect.stringContaining('Invalid watch message') });
  });
});
