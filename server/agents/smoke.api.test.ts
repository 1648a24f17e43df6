import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../test/app';
import { sessionClient, waitingAt } from '../../test/teams/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AGENT_TEST_TEAM: '1' });
});
afterAll(async () => {
  await t?.close();
});

describe('smoke', () => {
  it('runs', async () => {
    const u = await createUser(t.app);
    const c = sessionClient(t.app, u.accessToken);
    const t0 = Date.now();
    const id = await c.startTest();
    const s = await c.waitFor(id, waitingAt(1));
    console.log('to checkpoint', Date.now() - t0, JSON.stringify(s.checkpointData));
    console.log(await c.logLines(id));
    const f = await c.feedback(id, 'Approved');
    console.log(f.statusCode, f.json().status);
    const s2 = await c.waitFor(id, waitingAt(2));
    const f2 = await c.feedback(id, 'Approved');
    expect(f2.statusCode).toBe(200);
    const s3 = await c.waitFor(id, (x) => x.status === 'completed');
    console.log(Date.now() - t0, JSON.stringify(s3.finalOutputs));
    console.log(await c.logLines(id));
  });
});
