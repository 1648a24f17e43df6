import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionsUsage, UsageReport, ModelPrices } from '../../../common/usage';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/llm-server';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';

/**
 * What the model cost, through the API: sessions of the runtime's test team make scripted model
 * calls with known token counts; the usage of a session, of several, of the user and of the
 * server must add up to them, priced with the right table, and only for those who may read them.
 */

let t: TestApp;
let llm: ScriptedLlmServer;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  t = await createTestApp(
    {
      AGENT_SESSION_TOKEN_BUDGET: '0',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'scripted-model',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      // The server prices one other model; scripted-model has no price for the server.
      LLM_PRICES_JSON: '{"house-model": {"input": 1, "output": 2}}',
    },
    { extraTeams: [runtimeTestTeam] },
  );
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

async function researcher() {
  const u = await createUser(t.app);
  return { ...u, c: sessionClient(t.app, u.accessToken) };
}

async function get<T>(token: string, url: string): Promise<{ status: number; data: T }> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  return { status: res.statusCode, data: (res.json() as { data: T }).data };
}

/** A test-team session whose draft phase makes `calls` model calls of the scripted size. */
async function sessionWithCalls(c: ReturnType<typeof sessionClient>, calls: number) {
  const id = await c.startTest('usage', { useModel: true, modelCalls: calls });
  await c.waitFor(id, waitingAt(1));
  await c.feedback(id, 'Approved');
  const s = await c.waitFor(id, waitingAt(2));
  await c.action(id, 'cancel');
  return { id, usage: s.usage };
}

describe('usage and cost', () => {
  let owner: Awaited<ReturnType<typeof researcher>>;
  let first: { id: string; usage: { totalTokens: number; calls: number } };
  let second: { id: string; usage: { totalTokens: number; calls: number } };

  beforeAll(async () => {
    llm.reset();
    llm.scriptPhase('runtime-test', 'draft', {
      text: 'A draft from the model.',
      usage: { promptTokens: 1000, completionTokens: 500 },
    });
    owner = await researcher();
    first = await sessionWithCalls(owner.c, 1);
    second = await sessionWithCalls(owner.c, 2);
  });

  it("a session's usage: calls and tokens as recorded; a model without a price costs unknown", async () => {
    const r = await get<{ usage: SessionsUsage }>(
      owner.accessToken,
      `/api/agents/sessions/${second.id}/usage`,
    );
    expect(r.status).toBe(200);
    expect(r.data.usage.total).toMatchObject({
      calls: 2,
      inputTokens: 2000,
      outputTokens: 1000,
      totalTokens: 3000,
      costUsd: null,
      unpricedModels: ['scripted-model'],
    });
    // The same numbers as the session's own status.
    expect(r.data.usage.total.totalTokens).toBe(second.usage.totalTokens);
    expect(r.data.usage.byModel).toEqual([
      expect.objectContaining({ model: 'scripted-model', calls: 2, costUsd: null }),
    ]);
  });

  it("the user's own price applies to their sessions at once, past calls included", async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/model-prices',
      headers: bearer(owner.accessToken),
      payload: { prices: [{ model: ' Scripted-Model ', input: 2, output: 8 }] },
    });
    expect(put.statusCode).toBe(200);
    const prices = (put.json() as { data: { prices: ModelPrices } }).data.prices;
    expect(prices.models.find((m) => m.model === 'scripted-model')).toEqual({
      model: 'scripted-model',
      input: 2,
      output: 8,
      source: 'user',
      fallback: null,
    });
    expect(prices.models.find((m) => m.model === 'house-model')?.source).toBe('server');
    expect(prices.models.find((m) => m.model === 'gpt-4.1')).toMatchObject({
      input: 2,
      output: 8,
      source: 'default',
    });
    expect(prices.unpriced).toEqual([]);

    const r = await get<{ usage: SessionsUsage }>(
      owner.accessToken,
      `/api/agents/sessions/${first.id}/usage`,
    );
    // 1000 input tokens at $2/M + 500 output tokens at $8/M.
    expect(r.data.usage.total.costUsd).toBeCloseTo(0.006, 10);
    expect(r.data.usage.total.unpricedModels).toEqual([]);
  });

  it("a workflow's sessions add up; an id the caller may not read makes it 404", async () => {
    const both = await get<{ usage: SessionsUsage }>(
      owner.accessToken,
      `/api/agents/usage?sessions=${first.id},${second.id}`,
    );
    expect(both.status).toBe(200);
    expect(both.data.usage.total).toMatchObject({
      calls: 3,
      totalTokens: first.usage.totalTokens + second.usage.totalTokens,
    });
    expect(both.data.usage.total.costUsd).toBeCloseTo(0.018, 10);

    const other = await researcher();
    const own = await sessionWithCalls(other.c, 1);
    const mixed = await t.app.inject({
      method: 'GET',
      url: `/api/agents/usage?sessions=${first.id},${own.id}`,
      headers: bearer(other.accessToken),
    });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toMatchObject({ success: false });

    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/agents/usage?sessions=not-an-id',
      headers: bearer(owner.accessToken),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false });
  });

  it("another user gets 404 for the session's usage; an administrator reads it", async () => {
    const stranger = await researcher();
    const r = await t.app.inject({
      method: 'GET',
      url: `/api/agents/sessions/${first.id}/usage`,
      headers: bearer(stranger.accessToken),
    });
    expect(r.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/agents/sessions/${first.id}/usage` }))
        .statusCode,
    ).toBe(401);
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const a = await get<{ usage: SessionsUsage }>(
      admin.accessToken,
      `/api/agents/sessions/${first.id}/usage`,
    );
    expect(a.status).toBe(200);
    // Priced with the owner's prices, whoever reads it.
    expect(a.data.usage.total.costUsd).toBeCloseTo(0.006, 10);
  });

  it("the user's totals by month and team add up to their sessions", async () => {
    const r = await get<{ usage: UsageReport }>(owner.accessToken, '/api/settings/usage');
    expect(r.status).toBe(200);
    const u = r.data.usage;
    expect(u.prices).toBe('user');
    expect(u.total).toMatchObject({ calls: 3, inputTokens: 3000, outputTokens: 1500 });
    expect(u.total.costUsd).toBeCloseTo(0.018, 10);
    const month = new Date().toISOString().slice(0, 7);
    expect(u.byMonth).toEqual([expect.objectContaining({ month, calls: 3, totalTokens: 4500 })]);
    expect(u.byTeam).toEqual([
      expect.objectContaining({ teamId: 'runtime-test', calls: 3, totalTokens: 4500 }),
    ]);
    expect(u.byKeySource).toBeUndefined();

    const fresh = await researcher();
    const none = await get<{ usage: UsageReport }>(fresh.accessToken, '/api/settings/usage');
    expect(none.data.usage.total).toMatchObject({ calls: 0, costUsd: 0, unpricedModels: [] });
    expect(none.data.usage.byMonth).toEqual([]);
  });

  it("the server's totals: administrators only, priced with the server's prices", async () => {
    const denied = await t.app.inject({
      method: 'GET',
      url: '/api/admin/usage',
      headers: bearer(owner.accessToken),
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ success: false });

    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const r = await get<{ usage: UsageReport }>(admin.accessToken, '/api/admin/usage');
    expect(r.status).toBe(200);
    const u = r.data.usage;
    expect(u.prices).toBe('server');
    // The owner's 3 calls and the other researcher's 1, 1,500 tokens each.
    expect(u.total).toMatchObject({ calls: 4, totalTokens: 6000, costUsd: null });
    expect(u.total.unpricedModels).toEqual(['scripted-model']);
    expect(u.users).toBe(2);
    expect(u.byKeySource).toEqual([expect.objectContaining({ keySource: 'server', calls: 4 })]);
    expect(u.byTeam.reduce((n, x) => n + x.calls, 0)).toBe(4);
  });

  it('prices are validated: negative, duplicate, empty or too many entries are 400', async () => {
    for (const payload of [
      { prices: [{ model: 'm', input: -1, output: 1 }] },
      { prices: [{ model: 'm', input: 1, output: 1e9 }] },
      {
        prices: [
          { model: 'M', input: 1, output: 1 },
          { model: 'm', input: 2, output: 2 },
        ],
      },
      { prices: [{ model: '  ', input: 1, output: 1 }] },
      { prices: [{ model: 'a b', input: 1, output: 1 }] },
      { prices: [{ model: 'm', input: '1', output: 1 }] },
      { prices: Array.from({ length: 101 }, (_, i) => ({ model: `m${i}`, input: 1, output: 1 })) },
      {},
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/settings/model-prices',
        headers: bearer(owner.accessToken),
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
    }
    // An empty list goes back to the server's and default prices.
    const clear = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/model-prices',
      headers: bearer(owner.accessToken),
      payload: { prices: [] },
    });
    expect(clear.statusCode).toBe(200);
    const prices = (clear.json() as { data: { prices: ModelPrices } }).data.prices;
    expect(prices.unpriced).toEqual(['scripted-model']);
  });
});
