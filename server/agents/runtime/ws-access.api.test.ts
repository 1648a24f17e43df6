import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE, type WsServerMessage } from '../../../common/agents';
import {
  ADMIN,
  bearer,
  createSiblingApp,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../../test/app';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';
import { connectWs, type TestSocket } from '../../../test/teams/ws-client';
import { users } from '../../db/schema';
import { TOO_DEEP_MESSAGE } from '../../platform/json-depth';
import { WS_ACCESS_ENDED } from './ws';
import { postgresOnly, postgresOnlyReason } from '../../../test/requirements';

/**
 * An open WebSocket follows its account. A sign-out, a password change, a suspension or a role
 * change is announced on the event bus and closes the user's sockets in every process at once;
 * besides, the socket re-checks the user (status, suspension, role, token version, expiry) on
 * every subscribe and control message and at every heartbeat. It closes with 4401 and a reason
 * once access has ended, whether its token came in ?token= or in the header.
 */

let t: TestApp;
let baseUrl: string;
let adminToken: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  // A long heartbeat, so that the message checks are what the first tests see.
  t = await createTestApp({ WS_HEARTBEAT_SECONDS: '3600' }, { extraTeams: [runtimeTestTeam] });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
});

afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await t?.close();
});

async function connect(token: string, via: 'query' | 'header' = 'query') {
  const s = await connectWs(baseUrl, token, { via });
  open.push(s);
  await s.waitFor((m) => m.type === 'connection-established');
  return s;
}

function closed(s: TestSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    if (s.socket.readyState === s.socket.CLOSED) resolve({ code: -1, reason: 'already closed' });
    s.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
}

async function subscribe(s: TestSocket, sessionId: string) {
  const from = s.messages.length;
  s.send({ type: 'subscribe', subscriptionType: 'runtime-test-team', filters: { sessionId } });
  return s.next((m): m is WsServerMessage => m.type === 'subscribed' || m.type === 'error', {
    from,
  });
}

const put = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url, payload, headers: bearer(adminToken) });

/**
 * Sends the request that revokes access and measures how long the socket stays open after its
 * answer. A ping sent right after the answer must get no pong: the socket is closed, or its
 * messages wait for the check that closes it.
 */
async function revokeAndWatch(s: TestSocket, revoke: () => Promise<{ statusCode: number }>) {
  const done = closed(s);
  const res = await revoke();
  expect(res.statusCode).toBe(200);
  const answeredAt = Date.now();
  const from = s.messages.length;
  if (s.socket.readyState === s.socket.OPEN) s.send({ type: 'ping' });
  const close = await done;
  return {
    close,
    msAfterAnswer: Date.now() - answeredAt,
    pongs: s.messages.slice(from).filter((m) => m.type === 'pong'),
  };
}

async function answersPing(s: TestSocket): Promise<void> {
  const from = s.messages.length;
  s.send({ type: 'ping' });
  await s.next((m): m is WsServerMessage => m.type === 'pong', { from, timeoutMs: 5000 });
  expect(s.socket.readyState).toBe(s.socket.OPEN);
}

const post = (url: string, payload: Record<string, unknown>, token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    ...(token ? { headers: bearer(token) } : {}),
  });

describe('revocations close the user’s sockets at once (the heartbeat is an hour here)', () => {
  it('sign-out: the socket closes within a second, its ping is not answered; another user’s socket stays open', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const mine = await connect(user.accessToken);
    const second = await connect(user.accessToken, 'header');
    const theirs = await connect(other.accessToken);

    const secondClosed = closed(second);
    const watched = await revokeAndWatch(mine, () =>
      post('/api/auth/logout', { refreshToken: user.refreshToken }),
    );
    expect(watched.close).toEqual({ code: WS_CLOSE.unauthorized, reason: WS_ACCESS_ENDED.revoked });
    expect(watched.msAfterAnswer).toBeLessThan(1000);
    expect(watched.pongs).toEqual([]);
    // Every socket of that user, whichever way its token came.
    expect(await secondClosed).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    await answersPing(theirs);
  });

  it('a password change by the user or by an administrator closes the sockets', async () => {
    const user = await createUser(t.app);
    const watched = await revokeAndWatch(await connect(user.accessToken), () =>
      post(
        '/api/auth/change-password',
        {
          currentPassword: user.password,
          newPassword: 'changed-password-1',
          refreshToken: user.refreshToken,
        },
        user.accessToken,
      ),
    );
    expect(watched.close).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    expect(watched.msAfterAnswer).toBeLessThan(1000);
    expect(watched.pongs).toEqual([]);

    const again = await login(t.app, user.email, 'changed-password-1');
    const reset = await revokeAndWatch(await connect(again.accessToken), () =>
      post(`/api/auth/users/${user.id}/password`, { newPassword: 'reset-password-1' }, adminToken),
    );
    expect(reset.close).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    expect(reset.msAfterAnswer).toBeLessThan(1000);
  });

  it('signing out the other sessions closes their sockets too', async () => {
    const user = await createUser(t.app);
    const watched = await revokeAndWatch(await connect(user.accessToken), () =>
      post(
        '/api/auth/sessions/revoke-others',
        { refreshToken: user.refreshToken },
        user.accessToken,
      ),
    );
    expect(watched.close).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    expect(watched.msAfterAnswer).toBeLessThan(1000);
  });

  it('suspension closes with the inactive reason; a role change with revoked; a new name closes nothing', async () => {
    const user = await createUser(t.app);
    const suspended = await revokeAndWatch(await connect(user.accessToken), () =>
      put(`/api/auth/users/${user.id}/suspension`, { suspended: true }),
    );
    expect(suspended.close).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.inactive });
    expect(suspended.msAfterAnswer).toBeLessThan(1000);
    expect(suspended.pongs).toEqual([]);

    const admin = await createUser(t.app, { role: 'admin' });
    const adminSocket = await connect(admin.accessToken);
    expect((await put(`/api/auth/users/${admin.id}`, { displayName: 'Renamed' })).statusCode).toBe(
      200,
    );
    await answersPing(adminSocket);
    const demoted = await revokeAndWatch(adminSocket, () =>
      put(`/api/auth/users/${admin.id}`, { role: 'researcher' }),
    );
    expect(demoted.close).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    expect(demoted.msAfterAnswer).toBeLessThan(1000);
  });

  it('a reused refresh token closes the sockets of its user', async () => {
    const user = await createUser(t.app);
    const s = await connect(user.accessToken);
    const rotated = await post('/api/auth/refresh', { refreshToken: user.refreshToken });
    expect(rotated.statusCode).toBe(200);
    await answersPing(s); // rotating does not end access
    const done = closed(s);
    const reused = await post('/api/auth/refresh', { refreshToken: user.refreshToken });
    expect(reused.statusCode).toBe(401);
    expect(await done).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
  });
});

describe.skipIf(postgresOnly)(
  `revocations reach the sockets of another process (LISTEN/NOTIFY)${postgresOnlyReason}`,
  () => {
    it('a sign-out on one process closes the user’s socket on the other within a second', async () => {
      const sibling = await createSiblingApp(t);
      try {
        await sibling.app.listen({ port: 0, host: '127.0.0.1' });
        const url = `http://127.0.0.1:${(sibling.app.server.address() as AddressInfo).port}`;
        const user = await createUser(t.app);
        const other = await createUser(t.app);
        const there = await connectWs(url, user.accessToken);
        const theirs = await connectWs(url, other.accessToken);
        open.push(there, theirs);
        await there.waitFor((m) => m.type === 'connection-established');
        await theirs.waitFor((m) => m.type === 'connection-established');

        const watched = await revokeAndWatch(there, () =>
          post('/api/auth/logout', { refreshToken: user.refreshToken }),
        );
        expect(watched.close).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
        expect(watched.msAfterAnswer).toBeLessThan(1000);
        await answersPing(theirs);

        // A suspension too, with its reason.
        const third = await createUser(t.app);
        const s = await connectWs(url, third.accessToken);
        open.push(s);
        const suspended = await revokeAndWatch(s, () =>
          put(`/api/auth/users/${third.id}/suspension`, { suspended: true }),
        );
        expect(suspended.close).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.inactive });
        expect(suspended.msAfterAnswer).toBeLessThan(1000);
      } finally {
        await sibling.close();
      }
    });
  },
);

describe('a socket whose access ended unannounced (another tool moved the token version)', () => {
  /** What `npm run admin -- reset-password` does from outside the server: no bus message. */
  const bumpVersion = (id: string) =>
    t.ctx.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, id));

  it('refuses the next subscribe and control messages and closes', async () => {
    // A researcher's session, waiting at its first checkpoint.
    const owner = await createUser(t.app);
    const c = sessionClient(t.app, owner.accessToken);
    const id = await c.startTest('socket access');
    await c.waitFor(id, waitingAt(1));

    // A second administrator follows it over a socket opened with the Authorization header.
    const admin = await createUser(t.app, { role: 'admin' });
    const adminSocket = await connect(admin.accessToken, 'header');
    expect(await subscribe(adminSocket, id)).toMatchObject({ type: 'subscribed' });

    // The owner has a socket of their own (token in the URL, as the browser sends it).
    const ownerSocket = await connect(owner.accessToken);
    expect(await subscribe(ownerSocket, id)).toMatchObject({ type: 'subscribed' });

    // The administrator's access ends while the socket is open: the next subscribe is refused.
    await bumpVersion(admin.id);
    const adminClosed = closed(adminSocket);
    const refused = await subscribe(adminSocket, id);
    expect(refused).toEqual({
      type: 'error',
      error: `${WS_ACCESS_ENDED.revoked}: sign in again to continue`,
    });
    expect(await adminClosed).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });

    // The owner's too: the next control message is refused and the session is not cancelled.
    await bumpVersion(owner.id);
    const ownerClosed = closed(ownerSocket);
    const from = ownerSocket.messages.length;
    ownerSocket.send({ type: 'agent-control', action: 'cancel', executionId: id });
    const answer = await ownerSocket.next(
      (m): m is WsServerMessage => m.type === 'error' || m.type === 'agent-control-result',
      { from },
    );
    expect(answer).toEqual({
      type: 'error',
      error: `${WS_ACCESS_ENDED.revoked}: sign in again to continue`,
    });
    expect(await ownerClosed).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    const fresh = await login(t.app, owner.email, owner.password);
    const session = await sessionClient(t.app, fresh.accessToken).session(id);
    expect(session.status).toBe('waiting_for_input');
  });

  it('an administrator following another user’s session gets its updates only while their access lasts', async () => {
    const owner = await createUser(t.app);
    const c = sessionClient(t.app, owner.accessToken);
    const id = await c.startTest('admin follows');
    await c.waitFor(id, waitingAt(1));
    const staying = await createUser(t.app, { role: 'admin' });
    const leaving = await createUser(t.app, { role: 'admin' });
    const stayingSocket = await connect(staying.accessToken);
    const leavingSocket = await connect(leaving.accessToken, 'header');
    expect(await subscribe(stayingSocket, id)).toMatchObject({ type: 'subscribed' });
    expect(await subscribe(leavingSocket, id)).toMatchObject({ type: 'subscribed' });

    // Both were confirmed over a second ago: the next update checks them first.
    await new Promise((r) => setTimeout(r, 1200));
    await bumpVersion(leaving.id);
    const leavingClosed = closed(leavingSocket);
    const from = leavingSocket.messages.length;
    expect((await c.feedback(id, 'one more item')).statusCode).toBe(200);

    const update = await stayingSocket.next(
      (m): m is WsServerMessage => m.type === 'session-update' && m.sessionId === id,
      { from: 0 },
    );
    expect(update).toMatchObject({ type: 'session-update', sessionId: id });
    expect(await leavingClosed).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    const after = leavingSocket.messages.slice(from);
    expect(after.filter((m) => m.type === 'session-update')).toEqual([]);
    expect(after).toContainEqual({
      type: 'error',
      error: `${WS_ACCESS_ENDED.revoked}: sign in again to continue`,
    });
  });

  it('a suspended user’s socket is refused with the inactive reason', async () => {
    const user = await createUser(t.app);
    const s = await connect(user.accessToken);
    await t.ctx.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, user.id));
    const done = closed(s);
    s.send({ type: 'subscribe', subscriptionType: 'runtime-test-team' });
    expect(await done).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.inactive });
  });

  it('a socket opened with the Authorization header closes when its token expires', async () => {
    const user = await createUser(t.app);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    const shortLived = await t.ctx.signer.sign(
      { sub: user.id, purpose: 'access', ver: row!.tokenVersion },
      1,
    );
    const s = await connect(shortLived, 'header');
    await new Promise((r) => setTimeout(r, 1100));
    const done = closed(s);
    s.send({ type: 'subscribe', subscriptionType: 'runtime-test-team' });
    expect(await done).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.expired });
  });
});

describe('hostile messages', () => {
  it('a message nested deeper than the JSON limit gets an error and the socket stays usable', async () => {
    const user = await createUser(t.app);
    const s = await connect(user.accessToken);
    s.socket.send('['.repeat(5000) + ']'.repeat(5000));
    expect(await s.waitFor((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: TOO_DEEP_MESSAGE,
    });
    s.send({ type: 'ping' });
    await s.waitFor((m) => m.type === 'pong');
  });
});

describe('heartbeat checks', () => {
  it('closes the socket of a user whose token version moved on unannounced, without any message from it', async () => {
    const own = await createTestApp(
      { WS_HEARTBEAT_SECONDS: '1' },
      { extraTeams: [runtimeTestTeam] },
    );
    try {
      await own.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(own.app.server.address() as AddressInfo).port}`;
      const user = await createUser(own.app);
      const s = await connectWs(url, user.accessToken);
      open.push(s);
      await s.waitFor((m) => m.type === 'connection-established');
      const done = closed(s);
      await own.ctx.db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, user.id));
      expect(await done).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    } finally {
      await own.close();
    }
  });
});
