import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { client } from '../../../test/client';
import { statementsOfRequest } from '../../../test/statements';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notifications', () => {
  it('tells a user their account was approved', async () => {
    const u = await createUser(t.app, { displayName: 'Nora' });
    const res = await client(t.app, u.accessToken).get('/api/notifications');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 1, unreadCount: 1, limit: 20, offset: 0 });
    expect(res.body.data.notifications[0]).toMatchObject({
      kind: 'account_approved',
      title: 'Account approved',
      link: '/app/project-manager',
      read: false,
    });
    expect(res.body.data.notifications[0].message).toContain('Nora');
  });

  it('lists newest first, pages, marks one and all as read', async () => {
    const u = await createUser(t.app);
    const c = client(t.app, u.accessToken);
    await t.ctx.notify(u.id, {
      kind: 'session_waiting',
      title: 'Waiting',
      message: 'Checkpoint 1',
    });
    await sleep(5);
    await t.ctx.notify(u.id, {
      kind: 'session_completed',
      title: 'Done',
      message: 'Literature review finished',
      link: '/app/literature-team?session=abc',
    });
    const list = await c.get('/api/notifications');
    expect(list.body.data.notifications.map((n: { title: string }) => n.title)).toEqual([
      'Done',
      'Waiting',
      'Account approved',
    ]);
    expect(list.body.data.unreadCount).toBe(3);
    const page = await c.get('/api/notifications?limit=1&offset=1');
    expect(page.body.data.notifications.map((n: { title: string }) => n.title)).toEqual([
      'Waiting',
    ]);
    expect(page.body.data.total).toBe(3);

    const first = list.body.data.notifications[0].id;
    const read = await c.post(`/api/notifications/${first}/read`);
    expect(read.status).toBe(200);
    expect(read.body.data.unreadCount).toBe(2);
    // Marking again is harmless.
    expect((await c.post(`/api/notifications/${first}/read`)).body.data.unreadCount).toBe(2);
    const unread = await c.get('/api/notifications?unreadOnly=true');
    expect(unread.body.data.notifications.map((n: { title: string }) => n.title)).toEqual([
      'Waiting',
      'Account approved',
    ]);
    expect(unread.body.data.total).toBe(2);

    const all = await c.post('/api/notifications/read-all');
    expect(all.status).toBe(200);
    expect(all.body.data.unreadCount).toBe(0);
    const after = await c.get('/api/notifications');
    expect(after.body.data.notifications.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it('keeps notifications private: others’ ids answer 404', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const id = (await client(t.app, a.accessToken).get('/api/notifications')).body.data
      .notifications[0].id;
    const res = await client(t.app, b.accessToken).post(`/api/notifications/${id}/read`);
    expect(res.status).toBe(404);
    const stillUnread = await client(t.app, a.accessToken).get('/api/notifications');
    expect(stillUnread.body.data.unreadCount).toBe(1);
    expect(
      (await client(t.app, b.accessToken).post('/api/notifications/not-a-uuid/read')).status,
    ).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect((await client(t.app, a.accessToken).get('/api/notifications?limit=500')).status).toBe(
      400,
    );
  });

  it('honours the user’s notification settings', async () => {
    const u = await createUser(t.app);
    const c = client(t.app, u.accessToken);
    await c.post('/api/notifications/read-all');
    await c.put('/api/settings', { notifications: { sessionCompleted: false } });
    await t.ctx.notify(u.id, { kind: 'session_completed', title: 'Done', message: 'm' });
    await t.ctx.notify(u.id, { kind: 'session_failed', title: 'Failed', message: 'm' });
    let titles = (await c.get('/api/notifications')).body.data.notifications.map(
      (n: { title: string }) => n.title,
    );
    expect(titles).toEqual(['Failed', 'Account approved']);
    // The master switch stops all but system notices.
    await c.put('/api/settings', { profile: { notifications: false } });
    await t.ctx.notify(u.id, { kind: 'session_failed', title: 'Failed again', message: 'm' });
    await t.ctx.notify(u.id, { kind: 'system', title: 'Maintenance', message: 'm' });
    titles = (await c.get('/api/notifications')).body.data.notifications.map(
      (n: { title: string }) => n.title,
    );
    expect(titles).toEqual(['Maintenance', 'Failed', 'Account approved']);
  });
});

describe('reading the notifications (docs/performance.md, API reads)', () => {
  let u: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    u = await createUser(t.app);
    // Two notifications of one session (one read), one of another, and the approval notice.
    const session = '00000000-0000-4000-8000-000000000001';
    const other = '00000000-0000-4000-8000-000000000002';
    await t.ctx.notify(u.id, {
      kind: 'session_waiting',
      title: 'S1 a',
      message: 'm',
      sessionId: session,
    });
    await sleep(5);
    await t.ctx.notify(u.id, {
      kind: 'session_waiting',
      title: 'S2',
      message: 'm',
      sessionId: other,
    });
    await sleep(5);
    await t.ctx.notify(u.id, {
      kind: 'session_completed',
      title: 'S1 b',
      message: 'm',
      sessionId: session,
    });
    const c = client(t.app, u.accessToken);
    const listed = await c.get('/api/notifications');
    const s1a = listed.body.data.notifications.find((n: { title: string }) => n.title === 'S1 a');
    expect((await c.post(`/api/notifications/${s1a.id}/read`)).status).toBe(200);
  });

  it('answers the list, a page past the last and the unread ones with their totals', async () => {
    const c = client(t.app, u.accessToken);
    const page = (await c.get('/api/notifications?limit=2&offset=1')).body.data;
    expect(page.notifications.map((n: { title: string }) => n.title)).toEqual(['S2', 'S1 a']);
    expect(page).toMatchObject({ total: 4, unreadCount: 3, limit: 2, offset: 1 });
    const past = (await c.get('/api/notifications?offset=10')).body.data;
    expect(past).toMatchObject({ notifications: [], total: 4, unreadCount: 3 });
    const unread = (await c.get('/api/notifications?unreadOnly=true&limit=1&offset=1')).body.data;
    expect(unread.notifications.map((n: { title: string }) => n.title)).toEqual(['S2']);
    expect(unread).toMatchObject({ total: 3, unreadCount: 3 });
    const nobody = client(t.app, (await createUser(t.app)).accessToken);
    await nobody.post('/api/notifications/read-all');
    const none = (await nobody.get('/api/notifications?unreadOnly=true')).body.data;
    expect(none).toMatchObject({ notifications: [], total: 0, unreadCount: 0 });
  });

  it('answers the groups, a page past the last and the unread ones with their totals', async () => {
    const c = client(t.app, u.accessToken);
    const all = (await c.get('/api/notifications/groups')).body.data;
    expect(
      all.groups.map((g: { latest: { title: string }; count: number; unreadCount: number }) => [
        g.latest.title,
        g.count,
        g.unreadCount,
      ]),
    ).toEqual([
      ['S1 b', 2, 1],
      ['S2', 1, 1],
      ['Account approved', 1, 1],
    ]);
    expect(all).toMatchObject({ total: 3, unreadCount: 3 });
    const second = (await c.get('/api/notifications/groups?limit=1&offset=1')).body.data;
    expect(second.groups.map((g: { latest: { title: string } }) => g.latest.title)).toEqual(['S2']);
    expect(second).toMatchObject({ total: 3, unreadCount: 3 });
    const past = (await c.get('/api/notifications/groups?offset=3')).body.data;
    expect(past).toMatchObject({ groups: [], total: 3, unreadCount: 3 });
    // Only unread ones: the session's read notification is neither counted nor shown.
    const unread = (await c.get('/api/notifications/groups?unreadOnly=true')).body.data;
    expect(
      unread.groups.map((g: { latest: { title: string }; count: number }) => [
        g.latest.title,
        g.count,
      ]),
    ).toEqual([
      ['S1 b', 1],
      ['S2', 1],
      ['Account approved', 1],
    ]);
  });

  it('runs one statement per request', async () => {
    for (const url of [
      '/api/notifications',
      '/api/notifications?unreadOnly=true&limit=2&offset=1',
      '/api/notifications/groups',
      '/api/notifications/groups?unreadOnly=true&limit=1&offset=1',
    ]) {
      const statements = await statementsOfRequest(t, u.id, {
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${u.accessToken}` },
      });
      expect({ url, statements }).toEqual({ url, statements: [expect.any(String)] });
    }
  });
});
