import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectionTestReplySchema,
  modelStatusReplySchema,
  serverModelsReplySchema,
} from '../../../common/settings';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/llm-server';
import { llmCalls } from '../../db/schema';
import { client, type Client } from '../../../test/client';
import { CONNECTION_TEST_CALL as TEST_CALL } from '../../platform/llm-settings';
import { createSettingsStore } from './store';

/**
 * The model status and "Test connection" of Settings against the scripted OpenAI-compatible
 * server over real HTTP: what a session would use, a successful tiny call, the provider's 401
 * with its own error text, no model configured, drafts of unsaved choices, and the server's
 * /models list.
 */

const SERVER_KEY = 'server-key-0123456789';
const USER_KEY = 'sk-user-own-key-abcdefgh1234';

let llm: ScriptedLlmServer;
/** No model configured anywhere. */
let bare: TestApp;
/** The server's model is the scripted server; users may point at private addresses. */
let served: TestApp;
let bareUser: Client;
let servedUser: Client;
let servedUserId: string;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  [bare, served] = await Promise.all([
    createTestApp(),
    createTestApp({
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'scripted-model',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      OPENAI_COMPATIBLE_API_KEY: SERVER_KEY,
      LLM_ALLOW_PRIVATE_BASE_URLS: 'true',
    }),
  ]);
  bareUser = client(bare.app, (await createUser(bare.app)).accessToken);
  const u = await createUser(served.app);
  servedUserId = u.id;
  servedUser = client(served.app, u.accessToken);
});
afterAll(async () => {
  await Promise.all([bare?.close(), served?.close()]);
  await llm?.close();
});
beforeEach(() => llm.reset());

const status = (body: unknown) => modelStatusReplySchema.parse(body).data.status;
const result = (body: unknown) => connectionTestReplySchema.parse(body).data.result;

describe('GET /api/settings/model-status', () => {
  it('says no model is configured, and how to configure one', async () => {
    const res = await bareUser.get('/api/settings/model-status');
    expect(res.status).toBe(200);
    const s = status(res.body);
    expect(s).toMatchObject({ configured: false, provider: null, model: null, source: null });
    expect(s.hint).toMatch(/LLM_PROVIDER/);
    expect(s.hint).toMatch(/Settings > API Keys/);
    expect(s.canListModels).toBe(false);
    expect(s.choices.map((c) => c.model)).toEqual([null, null, null, null]);
  });

  it("names the server's provider and exact model id", async () => {
    const s = status((await servedUser.get('/api/settings/model-status')).body);
    expect(s).toMatchObject({
      configured: true,
      provider: 'openai-compatible',
      model: 'scripted-model',
      source: 'server',
      canListModels: true,
    });
    expect(s.hint).toBeUndefined();
    // LLM_MODEL replaces every preset on the server's provider.
    expect(s.choices).toEqual([
      { value: 'gpt-4', provider: 'openai-compatible', model: 'scripted-model' },
      { value: 'gpt-3.5-turbo', provider: 'openai-compatible', model: 'scripted-model' },
      { value: 'claude-3', provider: 'openai-compatible', model: 'scripted-model' },
      { value: 'custom', provider: null, model: null },
    ]);
  });

  it('needs a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/api/settings/model-status'],
      ['POST', '/api/settings/model-status'],
      ['POST', '/api/settings/test-connection'],
      ['POST', '/api/settings/models'],
    ] as const) {
      const res = await served.app.inject({ method, url, payload: {} });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ success: false });
    }
  });
});

describe('POST /api/settings/model-status (unsaved choices)', () => {
  it("maps the spec's choices to the models the user's own OpenAI key runs", async () => {
    const res = await bareUser.post('/api/settings/model-status', {
      llmProvider: 'openai',
      llmApiKey: USER_KEY,
    });
    expect(res.status).toBe(200);
    const s = status(res.body);
    expect(s).toMatchObject({
      configured: true,
      provider: 'openai',
      model: 'gpt-4.1',
      source: 'user',
    });
    expect(s.choices).toEqual([
      { value: 'gpt-4', provider: 'openai', model: 'gpt-4.1' },
      { value: 'gpt-3.5-turbo', provider: 'openai', model: 'gpt-4.1-mini' },
      { value: 'claude-3', provider: 'openai', model: 'gpt-4.1' },
      { value: 'custom', provider: null, model: null },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(USER_KEY);
    // A draft is not saved.
    const saved = (await bareUser.get('/api/settings')).body.data.settings;
    expect(saved.apiKeys.llmApiKey.hasKey).toBe(false);
    expect(status((await bareUser.get('/api/settings/model-status')).body).configured).toBe(false);
  });

  it("runs the user's custom model id, also on an Anthropic key", async () => {
    const s = status(
      (
        await bareUser.post('/api/settings/model-status', {
          llmProvider: 'anthropic',
          llmApiKey: USER_KEY,
          modelVersion: 'custom',
          customModel: 'claude-opus-4-1',
        })
      ).body,
    );
    expect(s).toMatchObject({ provider: 'anthropic', model: 'claude-opus-4-1', source: 'user' });
    expect(s.choices.find((c) => c.value === 'gpt-3.5-turbo')?.model).toBe('claude-haiku-4-5');
    expect(s.choices.find((c) => c.value === 'custom')?.model).toBe('claude-opus-4-1');
  });

  it('refuses a base URL on a private address where the server does not allow it', async () => {
    const s = status(
      (
        await bareUser.post('/api/settings/model-status', {
          llmProvider: 'openai-compatible',
          llmBaseUrl: 'http://127.0.0.1:11434/v1',
          modelVersion: 'custom',
          customModel: 'llama3.1',
        })
      ).body,
    );
    expect(s.configured).toBe(false);
    expect(s.hint).toMatch(/loopback/);
  });

  it('refuses bad choices with a 400 naming the field', async () => {
    for (const [payload, field] of [
      [{ llmProvider: 'cohere' }, 'llmProvider'],
      [{ modelVersion: 'gpt-5' }, 'modelVersion'],
      [{ llmBaseUrl: 'ftp://x' }, 'llmBaseUrl'],
      [{ llmApiKey: 'has space' }, 'llmApiKey'],
    ] as const) {
      for (const url of [
        '/api/settings/model-status',
        '/api/settings/test-connection',
        '/api/settings/models',
      ]) {
        const res = await servedUser.post(url, payload);
        expect(res.status, `${url} ${field}`).toBe(400);
        expect(res.body.success).toBe(false);
        expect(res.body.error).toContain(field);
      }
    }
    expect(llm.requests).toHaveLength(0);
  });
});

describe('POST /api/settings/test-connection', () => {
  it('makes one tiny call and reports the model and the latency', async () => {
    llm.scriptPhase(TEST_CALL.agent, TEST_CALL.phase, { text: 'OK' });
    const res = await servedUser.post('/api/settings/test-connection', {});
    expect(res.status).toBe(200);
    const r = result(res.body);
    expect(r).toMatchObject({
      ok: true,
      provider: 'openai-compatible',
      model: 'scripted-model',
      source: 'server',
    });
    if (!r.ok) throw new Error('expected success');
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    const sent = llm.requestsFor(TEST_CALL.agent, TEST_CALL.phase);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.model).toBe('scripted-model');
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${SERVER_KEY}`);
    const body = sent[0]?.body as { max_tokens?: number; max_completion_tokens?: number };
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(16);
    // The call is a real one: its usage is recorded like any other.
    const rows = await served.ctx.db
      .select()
      .from(llmCalls)
      .where(and(eq(llmCalls.userId, servedUserId), eq(llmCalls.agent, TEST_CALL.agent)));
    expect(rows.at(-1)).toMatchObject({ phase: TEST_CALL.phase, status: 'ok' });
  });

  it("passes on the provider's 401 and its own error text, without retrying", async () => {
    llm.setOptions({ requireApiKey: 'some-other-key' });
    const res = await servedUser.post('/api/settings/test-connection', {});
    expect(res.status).toBe(200);
    const r = result(res.body);
    expect(r).toMatchObject({ ok: false, kind: 'auth', status: 401, model: 'scripted-model' });
    if (r.ok) throw new Error('expected a failure');
    expect(r.message).toContain('Incorrect API key provided');
    expect(r.message).toContain('HTTP 401');
    expect(r.message).toMatch(/administrator/);
    expect(r.message).not.toContain(SERVER_KEY);
    expect(llm.requests).toHaveLength(1);
  });

  it("tests the user's unsaved key and server, and says whose they are", async () => {
    llm.setOptions({ requireApiKey: USER_KEY });
    llm.scriptPhase(TEST_CALL.agent, TEST_CALL.phase, { text: 'OK' });
    const r = result(
      (
        await servedUser.post('/api/settings/test-connection', {
          llmProvider: 'openai-compatible',
          llmBaseUrl: llm.baseUrl,
          llmApiKey: USER_KEY,
          modelVersion: 'custom',
          customModel: 'my-local-model',
        })
      ).body,
    );
    expect(r).toMatchObject({ ok: true, model: 'my-local-model', source: 'user' });
    expect(llm.requests[0]?.headers.authorization).toBe(`Bearer ${USER_KEY}`);

    // A wrong key of the user's own: the fix points at their settings.
    const wrong = result(
      (
        await servedUser.post('/api/settings/test-connection', {
          llmProvider: 'openai-compatible',
          llmBaseUrl: llm.baseUrl,
          llmApiKey: 'sk-wrong-key-000000000000',
          modelVersion: 'custom',
          customModel: 'my-local-model',
        })
      ).body,
    );
    expect(wrong).toMatchObject({ ok: false, kind: 'auth', status: 401 });
    if (wrong.ok) throw new Error('expected a failure');
    expect(wrong.message).toContain('Check your API key under Settings > API Keys');
    expect(wrong.message).not.toContain('sk-wrong-key');
  });

  it('says no model is configured without calling anything', async () => {
    const r = result((await bareUser.post('/api/settings/test-connection', {})).body);
    expect(r).toMatchObject({ ok: false, kind: 'not_configured', latencyMs: null });
    if (r.ok) throw new Error('expected a failure');
    expect(r.message).toMatch(/No language model is configured/);
  });

  it('names a missing custom model id', async () => {
    const r = result(
      (
        await servedUser.post('/api/settings/test-connection', {
          llmProvider: 'openai-compatible',
          llmBaseUrl: llm.baseUrl,
          modelVersion: 'gpt-4',
        })
      ).body,
    );
    expect(r).toMatchObject({ ok: false, kind: 'not_configured' });
    if (r.ok) throw new Error('expected a failure');
    expect(r.message).toMatch(/model id/);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('POST /api/settings/models', () => {
  it("lists an OpenAI-compatible server's models, sorted", async () => {
    llm.setOptions({ models: ['qwen2.5', 'llama3.1', 'llama3.1'] });
    const res = await servedUser.post('/api/settings/models', {});
    expect(res.status).toBe(200);
    expect(serverModelsReplySchema.parse(res.body).data.result).toEqual({
      ok: true,
      models: ['llama3.1', 'qwen2.5'],
    });
  });

  it('says when there is no OpenAI-compatible server to ask', async () => {
    const r = serverModelsReplySchema.parse((await bareUser.post('/api/settings/models', {})).body)
      .data.result;
    expect(r.ok).toBe(false);
    if (r.ok) throw new Error('expected a failure');
    expect(r.message).toMatch(/OpenAI-compatible/);
  });

  it('reports a server that cannot be reached', async () => {
    const r = serverModelsReplySchema.parse(
      (
        await servedUser.post('/api/settings/models', {
          llmProvider: 'openai-compatible',
          llmBaseUrl: 'http://127.0.0.1:9/v1',
          modelVersion: 'custom',
          customModel: 'x',
        })
      ).body,
    ).data.result;
    expect(r.ok).toBe(false);
    if (r.ok) throw new Error('expected a failure');
    expect(r.message).toContain('http://127.0.0.1:9');
  });
});

describe('a saved base URL that does not parse', () => {
  it('is refused with a 400 naming the setting when saved', async () => {
    for (const llmBaseUrl of ['http://[', 'http://exa mple.org', 'https://:80']) {
      const res = await servedUser.put('/api/settings', {
        apiKeys: { llmProvider: 'openai-compatible', llmBaseUrl },
      });
      expect(res.status, llmBaseUrl).toBe(400);
      expect(JSON.stringify(res.body), llmBaseUrl).toContain('llmBaseUrl');
    }
  });

  it('stored before that rule, is reported as a setting error, never a 500', async () => {
    const u = await createUser(served.app);
    const user = client(served.app, u.accessToken);
    expect(
      (
        await user.put('/api/settings', {
          apiKeys: { llmProvider: 'openai-compatible', llmBaseUrl: 'http://127.0.0.1:9/v1' },
          ai: { modelVersion: 'custom', customModel: 'x' },
        })
      ).status,
    ).toBe(200);
    // As an older version could have stored it: straight into the row.
    const store = createSettingsStore(served.ctx.db);
    const values = z
      .object({ apiKeys: z.record(z.string(), z.unknown()) })
      .loose()
      .parse((await store.find(u.id))?.values);
    await store.save(u.id, {
      values: { ...values, apiKeys: { ...values.apiKeys, llmBaseUrl: 'http://[' } },
      keys: {},
    });
    const models = serverModelsReplySchema.parse((await user.post('/api/settings/models', {})).body)
      .data.result;
    expect(models.ok).toBe(false);
    if (models.ok) throw new Error('expected a failure');
    expect(models.message, models.message).toMatch(/base URL.*not a valid URL/);
    const tested = result((await user.post('/api/settings/test-connection', {})).body);
    expect(tested.ok).toBe(false);
    if (tested.ok) throw new Error('expected a failure');
    expect(tested.message).toMatch(/base URL.*not a valid URL/);
    const s = status((await user.get('/api/settings/model-status')).body);
    expect(s.configured).toBe(false);
    expect(s.hint).toMatch(/base URL.*not a valid URL/);
  });
});
