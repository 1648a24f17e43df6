import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsServerMessage } from '../../../common/agents';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';
import { connectWs, type TestSocket } from '../../../test/teams/ws-client';
import { users } from '../../db/schema';
import { TOO_DEEP_MESSAGE } from '../../platform/json-depth';
import { WS_ACCESS_ENDED } from './ws';

/**
 * An open WebSocket follows its account: it re-checks the user (status, suspension, role, token
 * version, expiry) on every subscribe and control message and at every heartbeat, and closes with
 * 4401 and a reason once access has ended, whether its token came in ?token= or in the header.
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

describe('a socket whose user is demoted or signs out', () => {
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

    // The administrator is demoted while the socket is open: the next subscribe is refused.
    expect((await put(`/api/auth/users/${admin.id}`, { role: 'researcher' })).statusCode).toBe(200);
    const adminClosed = closed(adminSocket);
    const refused = await subscribe(adminSocket, id);
    expect(refused).toEqual({
      type: 'error',
      error: `${WS_ACCESS_ENDED.revoked}: sign in again to continue`,
    });
    expect(await adminClosed).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });

    // The owner signs out while the socket is open: the next control message is refused and the
    // session is not paused.
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken: owner.refreshToken },
    });
    expect(out.statusCode).toBe(200);
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

  it('a suspended user’s socket is refused with the inactive reason', async () => {
    const user = await createUser(t.app);
    const s = await connect(user.accessToken);
    expect(
      (await put(`/api/auth/users/${user.id}/suspension`, { suspended: true })).statusCode,
    ).toBe(200);
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
  it('closes the socket of a user whose password was reset without any message from it', async () => {
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
      const done = closed(s);
      const admin = await login(own.app, ADMIN.email, ADMIN.password);
      const reset = await own.app.inject({
        method: 'POST',
        url: `/api/auth/users/${user.id}/password`,
        headers: bearer(admin.accessToken),
        payload: { newPassword: 'reset-password-1' },
      });
      expect(reset.statusCode).toBe(200);
      expect(await done).toEqual({ code: 4401, reason: WS_ACCESS_ENDED.revoked });
    } finally {
      await own.close();
    }
  });
});
