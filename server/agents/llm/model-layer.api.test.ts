import dns from 'node:dns';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase } from '../../../test/db';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/llm-server';
import { loadConfig } from '../../config';
import type { DatabaseHandle } from '../../db/connect';
import { llmCalls, users } from '../../db/schema';
import {
  BaseUrlRefusedError,
  LLM_SETUP_HINT,
  ModelCallAbortedError,
  ModelCallError,
  ModelNotConfiguredError,
  ModelOutputError,
} from './errors';
import { createModelLayer, type ModelLayer, type ModelLogger } from './model-layer';
import type { RetryPolicy } from './retry';
import { DEFAULT_USER_LLM_SETTINGS, type UserLlmSettings } from '../../platform/llm-settings';

/**
 * The model layer against the scripted OpenAI-compatible server over real HTTP, with usage
 * written to a real database (PGlite, or PostgreSQL with TEST_DB=postgres).
 */

const ideaSchema = z.object({
  title: z.string().min(3),
  questions: z.array(z.string()).min(1),
});
const IDEA = { title: 'Minimum wages and automation', questions: ['Does it speed adoption?'] };

let handle: DatabaseHandle;
let llm: ScriptedLlmServer;
let userA: string;
let userB: string;
const logged: string[] = [];
const logger: ModelLogger = {
  info: (obj, msg) => logged.push(JSON.stringify({ obj, msg })),
  warn: (obj, msg) => logged.push(JSON.stringify({ obj, msg })),
  error: (obj, msg) =>
    logged.push(
      JSON.stringify({ obj: { ...obj, err: String((obj as { err?: unknown }).err) }, msg }),
    ),
};

const FAST_RETRY: Partial<RetryPolicy> = { baseDelayMs: 5, jitter: 0 };

async function insertUser(email: string): Promise<string> {
  const [row] = await handle.db
    .insert(users)
    .values({ email, passwordHash: 'x', displayName: email, status: 'approved' })
    .returning({ id: users.id });
  if (!row) throw new Error('no user');
  return row.id;
}

function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LLM_PROVIDER: 'openai-compatible',
    LLM_MODEL: 'scripted-model',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    OPENAI_COMPATIBLE_API_KEY: 'server-key-0123456789',
    ...extra,
  };
}

function makeLayer(
  opts: {
    env?: Record<string, string>;
    settings?: Partial<UserLlmSettings> | ((userId: string) => Partial<UserLlmSettings>);
    retry?: Partial<RetryPolicy>;
  } = {},
): ModelLayer {
  return createModelLayer({
    config: loadConfig(opts.env ?? serverEnv()),
    loadUserLlmSettings: async (userId) => ({
      ...DEFAULT_USER_LLM_SETTINGS,
      ...(typeof opts.settings === 'function' ? opts.settings(userId) : opts.settings),
    }),
    db: handle.db,
    log: logger,
    retry: opts.retry ?? FAST_RETRY,
  });
}

async function callsOf(sessionId: string) {
  return handle.db.select().from(llmCalls).where(eq(llmCalls.sessionId, sessionId));
}

let sessionCounter = 0;
const newSession = () => `session-${++sessionCounter}-${Date.now()}`;

beforeAll(async () => {
  handle = await createTestDatabase();
  llm = await startScriptedLlmServer();
  userA = await insertUser('a@llm.test');
  userB = await insertUser('b@llm.test');
});

afterEach(() => {
  llm.reset();
});

afterAll(async () => {
  await llm.close();
  await handle.close();
  // No key ever reaches a log line.
  const all = logged.join('\n');
  expect(all).not.toContain('server-key-0123456789');
  expect(all).not.toContain('user-key-abcdef');
  expect(all).not.toContain('sk-test-secret-key-123');
});

describe('structured output', () => {
  it('asks for a JSON schema and returns the validated object with usage', async () => {
    const layer = makeLayer({ settings: { temperature: 0.2, maxTokens: 1234 } });
    llm.scriptPhase('ideation', 'generate', { json: IDEA });
    const sessionId = newSession();
    const result = await layer
      .forCall({ userId: userA, sessionId, agent: 'ideation', phase: 'generate' })
      .generateObject(ideaSchema, {
        system: 'You are an economist.',
        prompt: 'Propose a research idea.',
        schemaName: 'idea',
      });
    expect(result.object).toEqual(IDEA);
    expect(result.usage).toMatchObject({
      provider: 'openai-compatible',
      model: 'scripted-model',
      keySource: 'server',
      requests: 1,
      repaired: false,
      costUsd: null,
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);

    const [req] = llm.requestsFor('ideation', 'generate');
    expect(req?.responseFormat?.type).toBe('json_schema');
    const schema = req?.responseFormat?.json_schema?.schema as { properties?: object };
    expect(Object.keys(schema.properties ?? {})).toEqual(['title', 'questions']);
    expect(req?.body?.temperature).toBe(0.2);
    expect(req?.body?.max_tokens).toBe(1234);
    expect(req?.model).toBe('scripted-model');
    expect(req?.system).toBe('You are an economist.');
    expect(req?.prompt).toBe('Propose a research idea.');
    expect(req?.headers.authorization).toBe('Bearer server-key-0123456789');

    const rows = await callsOf(sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: userA,
      agent: 'ideation',
      phase: 'generate',
      kind: 'object',
      status: 'ok',
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      costUsd: null,
    });
  });

  it('generates free text, with earlier turns passed as messages', async () => {
    const layer = makeLayer();
    llm.scriptPhase('literature', 'report', { text: 'A short report.' });
    const result = await layer
      .forCall({ userId: userA, agent: 'literature', phase: 'report' })
      .generateText({
        system: 'Write reports.',
        messages: [
          { role: 'user', content: 'First draft please.' },
          { role: 'assistant', content: 'Draft one.' },
        ],
        prompt: 'Feedback: shorter.',
      });
    expect(result.text).toBe('A short report.');
    const [req] = llm.requestsFor('literature', 'report');
    expect(req?.responseFormat).toBeUndefined();
    expect(req?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('repairs an invalid structured reply once by sending the validation error back', async () => {
    const layer = makeLayer();
    llm.scriptPhase('ideation', 'repair', { json: { title: 'x', questions: [] } }, { json: IDEA });
    const sessionId = newSession();
    const result = await layer
      .forCall({ userId: userA, sessionId, agent: 'ideation', phase: 'repair' })
      .generateObject(ideaSchema, { prompt: 'Idea?' });
    expect(result.object).toEqual(IDEA);
    expect(result.usage.repaired).toBe(true);
    expect(result.usage.requests).toBe(2);
    const [, repair] = llm.requestsFor('ideation', 'repair');
    expect(repair?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair?.messages[1]?.content).toBe(JSON.stringify({ title: 'x', questions: [] }));
    expect(repair?.prompt).toMatch(/did not match the schema/);
    expect(repair?.prompt).toMatch(/title/);
    const [row] = await callsOf(sessionId);
    expect(row).toMatchObject({ repaired: true, requests: 2, status: 'ok' });
    // The tokens of both requests are counted.
    expect(row?.inputTokens).toBe(result.usage.inputTokens);
    expect(result.usage.inputTokens).toBeGreaterThan(20);
  });
});

describe('prompted JSON (no JSON-schema support)', () => {
  it('falls back to prompted JSON when the server refuses json_schema, and repairs malformed output', async () => {
    const layer = makeLayer();
    llm.setOptions({ jsonSchema: 'rejected' });
    llm.scriptPhase(
      'data',
      'plan',
      { malformed: true },
      { text: 'Here you go:\n```json\n' + JSON.stringify(IDEA) + '\n```' },
    );
    const result = await layer
      .forCall({ userId: userA, agent: 'data', phase: 'plan' })
      .generateObject(ideaSchema, { system: 'Plan the analysis.', prompt: 'Plan?' });
    expect(result.object).toEqual(IDEA);
    expect(result.usage.repaired).toBe(true);
    // The refused json_schema request, the malformed reply and the repaired one.
    expect(result.usage.requests).toBe(3);
    const reqs = llm.requestsFor('data', 'plan');
    expect(reqs.map((r) => r.outcome)).toEqual([400, 200, 200]);
    expect(reqs[0]?.responseFormat?.type).toBe('json_schema');
    for (const r of reqs.slice(1)) {
      expect(r.responseFormat).toBeUndefined();
      expect(r.system).toContain('Plan the analysis.');
      expect(r.system).toContain('JSON Schema');
      expect(r.system).toContain('"questions"');
    }
    expect(reqs[2]?.prompt).toMatch(/not valid JSON/);

    // The server is remembered: the next call goes straight to prompted JSON.
    llm.scriptPhase('data', 'plan2', { json: IDEA });
    await layer
      .forCall({ userId: userA, agent: 'data', phase: 'plan2' })
      .generateObject(ideaSchema, { prompt: 'Again?' });
    expect(llm.requestsFor('data', 'plan2')).toHaveLength(1);
    expect(llm.requestsFor('data', 'plan2')[0]?.responseFormat).toBeUndefined();
  });

  it('LLM_STRUCTURED_OUTPUT=prompted never sends a schema as response_format', async () => {
    const layer = makeLayer({ env: serverEnv({ LLM_STRUCTURED_OUTPUT: 'prompted' }) });
    llm.scriptPhase('model', 'spec', { text: JSON.stringify(IDEA) });
    const result = await layer
      .forCall({ userId: userA, agent: 'model', phase: 'spec' })
      .generateObject(ideaSchema, { prompt: 'Spec?' });
    expect(result.object).toEqual(IDEA);
    expect(result.usage.requests).toBe(1);
    expect(llm.requestsFor('model', 'spec')[0]?.responseFormat).toBeUndefined();
  });

  it('fails with a clear error when the repaired reply is still invalid', async () => {
    const layer = makeLayer({ env: serverEnv({ LLM_STRUCTURED_OUTPUT: 'prompted' }) });
    llm.scriptPhase('code', 'generate', { malformed: true }, { json: { title: 'ok title' } });
    const sessionId = newSession();
    const error = await layer
      .forCall({ userId: userA, sessionId, agent: 'code', phase: 'generate' })
      .generateObject(ideaSchema, { prompt: 'Code?' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    const e = error as ModelOutputError;
    expect(e.kind).toBe('invalid_output');
    expect(e.message).toMatch(
      /did not return the expected structure, also after one repair attempt/,
    );
    expect(e.message).toMatch(/questions/);
    expect(e.text).toBe(JSON.stringify({ title: 'ok title' }));
    expect(e.details.requests).toBe(2);
    expect(llm.requestsFor('code', 'generate')).toHaveLength(2);
    const [row] = await callsOf(sessionId);
    expect(row).toMatchObject({ status: 'error', errorKind: 'invalid_output', requests: 2 });
    expect(row?.inputTokens).toBeGreaterThan(0);
  });
});

describe('retries', () => {
  it('honours Retry-After on 429 (measured)', async () => {
    // Backoff alone would wait 5 ms: the 1 s gap comes from Retry-After.
    const layer = makeLayer({ retry: { baseDelayMs: 5, jitter: 0 } });
    llm.scriptPhase(
      'literature',
      'search',
      { error: { status: 429, retryAfter: 1 } },
      { json: IDEA },
    );
    const started = Date.now();
    const result = await layer
      .forCall({ userId: userA, agent: 'literature', phase: 'search' })
      .generateObject(ideaSchema, { prompt: 'Search.' });
    const [first, second] = llm.requestsFor('literature', 'search');
    const gap = (second?.startedAt ?? 0) - (first?.endedAt ?? 0);
    expect(result.object).toEqual(IDEA);
    expect(result.usage.requests).toBe(2);
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(1600);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('retries 5xx with exponential backoff and then succeeds', async () => {
    const layer = makeLayer({ retry: { baseDelayMs: 40, jitter: 0 } });
    llm.scriptPhase(
      'ideation',
      'flaky',
      { error: { status: 503 } },
      { error: { status: 500 } },
      { json: IDEA },
    );
    const result = await layer
      .forCall({ userId: userA, agent: 'ideation', phase: 'flaky' })
      .generateObject(ideaSchema, { prompt: 'x' });
    expect(result.object).toEqual(IDEA);
    expect(result.usage.requests).toBe(3);
    const reqs = llm.requestsFor('ideation', 'flaky');
    const gap1 = (reqs[1]?.startedAt ?? 0) - (reqs[0]?.endedAt ?? 0);
    const gap2 = (reqs[2]?.startedAt ?? 0) - (reqs[1]?.endedAt ?? 0);
    expect(gap1).toBeGreaterThanOrEqual(35);
    expect(gap2).toBeGreaterThanOrEqual(75); // doubled
  });

  it('gives up after the retry maximum with a readable error', async () => {
    const layer = makeLayer({ retry: { ...FAST_RETRY, maxRetries: 2 } });
    llm.scriptPhase('ideation', 'down', {
      error: { status: 502, message: 'Bad gateway upstream' },
    });
    const sessionId = newSession();
    const error = await layer
      .forCall({ userId: userA, sessionId, agent: 'ideation', phase: 'down' })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    const e = error as ModelCallError;
    expect(e.kind).toBe('server_error');
    expect(e.message).toMatch(/HTTP 502, also after 2 retries: Bad gateway upstream/);
    expect(e.details).toMatchObject({ status: 502, requests: 3 });
    expect(llm.requestsFor('ideation', 'down')).toHaveLength(3);
    const [row] = await callsOf(sessionId);
    expect(row).toMatchObject({ status: 'error', errorKind: 'server_error', requests: 3 });
  });

  it('says "high demand" after 429s run out', async () => {
    const layer = makeLayer({ retry: { ...FAST_RETRY, maxRetries: 1 } });
    llm.scriptPhase('literature', 'busy', { error: { status: 429 } });
    const error = await layer
      .forCall({ userId: userA, agent: 'literature', phase: 'busy' })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    expect((error as ModelCallError).kind).toBe('rate_limited');
    expect((error as Error).message).toMatch(
      /Service temporarily unavailable due to high demand. Please try again in a few minutes./,
    );
  });

  it('does not retry 4xx other than 429 and never shows the key', async () => {
    const layer = makeLayer();
    llm.scriptPhase('ideation', 'auth', {
      error: { status: 401, message: 'Incorrect API key provided: sk-test-secret-key-123' },
    });
    const error = await layer
      .forCall({ userId: userA, agent: 'ideation', phase: 'auth' })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    expect((error as ModelCallError).kind).toBe('auth');
    expect((error as Error).message).toMatch(/refused the API key \(HTTP 401\)/);
    expect((error as Error).message).toMatch(/administrator/);
    expect((error as Error).message).not.toContain('sk-test-secret-key-123');
    expect(llm.requestsFor('ideation', 'auth')).toHaveLength(1);
  });

  it('times out a slow request, retries it, and reports a timeout when all attempts time out', async () => {
    const layer = makeLayer({
      settings: { requestTimeoutSeconds: 0.3 },
      retry: { ...FAST_RETRY, maxRetries: 1 },
    });
    llm.scriptPhase('model', 'slow', { delayMs: 2000, json: IDEA }, { json: IDEA });
    const ok = await layer
      .forCall({ userId: userA, agent: 'model', phase: 'slow' })
      .generateObject(ideaSchema, { prompt: 'x' });
    expect(ok.usage.requests).toBe(2);
    expect(llm.requestsFor('model', 'slow')[0]?.outcome).toBe('client-closed');

    llm.scriptPhase('model', 'stuck', { hang: true });
    const started = Date.now();
    const error = await layer
      .forCall({ userId: userA, agent: 'model', phase: 'stuck' })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect((error as ModelCallError).kind).toBe('timeout');
    expect((error as Error).message).toMatch(/did not answer within 0.3 s, also after 1 retry/);
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(2000);
    expect(llm.requestsFor('model', 'stuck')).toHaveLength(2);
  });
});

describe('limits and cancellation', () => {
  it('never has more than maxConcurrentRequests calls of one user in flight', async () => {
    const layer = makeLayer({
      settings: (userId) => ({ maxConcurrentRequests: userId === userA ? 2 : 3 }),
    });
    llm.scriptPhase('ideation', 'a', { delayMs: 120, json: IDEA });
    llm.scriptPhase('ideation', 'b', { delayMs: 120, json: IDEA });
    const a = layer.forCall({ userId: userA, agent: 'ideation', phase: 'a' });
    const b = layer.forCall({ userId: userB, agent: 'ideation', phase: 'b' });
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => a.generateObject(ideaSchema, { prompt: 'x' })),
      ...Array.from({ length: 6 }, () => b.generateObject(ideaSchema, { prompt: 'y' })),
    ]);
    expect(results).toHaveLength(12);
    expect(llm.maxConcurrent((r) => r.phase === 'a')).toBe(2);
    expect(llm.maxConcurrent((r) => r.phase === 'b')).toBe(3);
    // The users do not share one limit.
    expect(llm.maxConcurrent()).toBe(5);
  });

  it('an abort signal cancels an in-flight call at once', async () => {
    const layer = makeLayer();
    llm.scriptPhase('literature', 'hang', { hang: true });
    const controller = new AbortController();
    const sessionId = newSession();
    const pending = layer
      .forCall({
        userId: userA,
        sessionId,
        agent: 'literature',
        phase: 'hang',
        signal: controller.signal,
      })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    await waitFor(() => llm.inFlight() === 1);
    const started = Date.now();
    controller.abort(new Error('session cancelled'));
    const error = await pending;
    expect(error).toBeInstanceOf(ModelCallAbortedError);
    expect(Date.now() - started).toBeLessThan(500);
    await waitFor(() => llm.inFlight() === 0);
    expect(llm.requestsFor('literature', 'hang')[0]?.outcome).toBe('client-closed');
    const [row] = await callsOf(sessionId);
    expect(row).toMatchObject({ status: 'error', errorKind: 'aborted' });
  });

  it('an abort while queued or while waiting to retry stops the call without a request', async () => {
    const layer = makeLayer({
      settings: { maxConcurrentRequests: 1 },
      retry: { baseDelayMs: 10_000, jitter: 0 },
    });
    llm.scriptPhase('data', 'busy', { hang: true });
    llm.scriptPhase('data', 'queued', { json: IDEA });
    const blocker = new AbortController();
    const first = layer
      .forCall({ userId: userA, agent: 'data', phase: 'busy', signal: blocker.signal })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    await waitFor(() => llm.inFlight() === 1);
    const queuedController = new AbortController();
    const queued = layer
      .forCall({ userId: userA, agent: 'data', phase: 'queued', signal: queuedController.signal })
      .generateText({ prompt: 'y' })
      .catch((e: unknown) => e);
    queuedController.abort();
    expect(await queued).toBeInstanceOf(ModelCallAbortedError);
    blocker.abort();
    expect(await first).toBeInstanceOf(ModelCallAbortedError);
    await new Promise((r) => setTimeout(r, 50));
    expect(llm.requestsFor('data', 'queued')).toHaveLength(0);

    // Waiting 10 s before a retry: the abort ends the wait.
    llm.scriptPhase('data', 'retry', { error: { status: 500 } });
    const c = new AbortController();
    const retrying = layer
      .forCall({ userId: userA, agent: 'data', phase: 'retry', signal: c.signal })
      .generateText({ prompt: 'z' })
      .catch((e: unknown) => e);
    await waitFor(() => llm.requestsFor('data', 'retry')[0]?.outcome === 500);
    const started = Date.now();
    c.abort();
    expect(await retrying).toBeInstanceOf(ModelCallAbortedError);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('an already aborted signal fails before any request', async () => {
    const layer = makeLayer();
    const error = await layer
      .forCall({ userId: userA, agent: 'x', phase: 'y', signal: AbortSignal.abort() })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallAbortedError);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('usage and cost', () => {
  it('records tokens and estimated cost per call and totals them per session and user', async () => {
    const layer = makeLayer({ env: serverEnv({ LLM_MODEL: 'gpt-4.1-mini' }) });
    llm.script({
      agent: 'ideation',
      replies: [{ json: IDEA, usage: { promptTokens: 1000, completionTokens: 500 } }],
    });
    const sessionId = newSession();
    const before = await layer.usage.forUser(userB);
    const h1 = layer.forCall({ userId: userB, sessionId, agent: 'ideation', phase: 'one' });
    const h2 = layer.forCall({ userId: userB, sessionId, agent: 'ideation', phase: 'two' });
    const r1 = await h1.generateObject(ideaSchema, { prompt: 'x' });
    await h2.generateObject(ideaSchema, { prompt: 'x' });
    await h2.generateObject(ideaSchema, { prompt: 'x' });

    // gpt-4.1-mini: $0.40 in, $1.60 out per million tokens.
    expect(r1.usage.costUsd).toBeCloseTo(0.0012, 10);
    expect(r1.usage).toMatchObject({ inputTokens: 1000, outputTokens: 500, totalTokens: 1500 });
    expect(r1.usage.latencyMs).toBeGreaterThanOrEqual(0);

    const totals = await layer.usage.forSession(sessionId);
    expect(totals).toMatchObject({
      calls: 3,
      failedCalls: 0,
      inputTokens: 3000,
      outputTokens: 1500,
      totalTokens: 4500,
      unpricedCalls: 0,
    });
    expect(totals.costUsd).toBeCloseTo(0.0036, 10);

    const breakdown = await layer.usage.breakdownForSession(sessionId);
    expect(breakdown.map((b) => [b.phase, b.calls, b.totalTokens])).toEqual([
      ['one', 1, 1500],
      ['two', 2, 3000],
    ]);
    const many = await layer.usage.forSessions([sessionId, 'no-such-session']);
    expect(many.get(sessionId)?.calls).toBe(3);
    expect(many.get('no-such-session')?.calls).toBe(0);

    const after = await layer.usage.forUser(userB);
    expect(after.calls - before.calls).toBe(3);
    expect(after.totalTokens - before.totalTokens).toBe(4500);
    expect(
      await layer.usage.forUser(userB, { since: new Date(Date.now() + 60_000) }),
    ).toMatchObject({ calls: 0 });
    const listed = await layer.usage.listCalls({ sessionId }, { limit: 2 });
    expect(listed).toHaveLength(2);
    expect(listed[0]?.model).toBe('gpt-4.1-mini');
  });

  it('an unknown model costs null (not 0) unless LLM_PRICES_JSON prices it', async () => {
    llm.script({ replies: [{ json: IDEA, usage: { promptTokens: 100, completionTokens: 100 } }] });
    const unknownSession = newSession();
    const unknown = await makeLayer()
      .forCall({ userId: userA, sessionId: unknownSession, agent: 'a', phase: 'p' })
      .generateObject(ideaSchema, { prompt: 'x' });
    expect(unknown.usage.costUsd).toBeNull();
    const totals = await makeLayer().usage.forSession(unknownSession);
    expect(totals).toMatchObject({ calls: 1, unpricedCalls: 1, costUsd: 0 });

    const priced = await makeLayer({
      env: serverEnv({ LLM_PRICES_JSON: '{"scripted-model": {"input": 10, "output": 20}}' }),
    })
      .forCall({ userId: userA, agent: 'a', phase: 'p' })
      .generateObject(ideaSchema, { prompt: 'x' });
    expect(priced.usage.costUsd).toBeCloseTo(0.003, 10);
  });
});

describe('configuration', () => {
  it('with no provider configured, a call fails at once saying how to configure one', async () => {
    const layer = makeLayer({ env: { NODE_ENV: 'test' } });
    const availability = await layer.availability(userA);
    expect(availability).toMatchObject({ configured: false, provider: null, source: null });
    expect(availability.hint).toContain(LLM_SETUP_HINT);
    await expect(layer.ensureAvailable(userA)).rejects.toBeInstanceOf(ModelNotConfiguredError);

    const started = Date.now();
    const error = await layer
      .forCall({ userId: userA, sessionId: newSession(), agent: 'ideation', phase: 'generate' })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(200);
    expect(error).toBeInstanceOf(ModelNotConfiguredError);
    const message = (error as Error).message;
    expect(message).toContain('LLM_PROVIDER');
    expect(message).toContain('OPENAI_API_KEY');
    expect(message).toContain('Settings > API Keys');
    expect(llm.requests).toHaveLength(0);
  });

  it('names the missing variable when the provider is set but incomplete', async () => {
    const layer = makeLayer({ env: { NODE_ENV: 'test', LLM_PROVIDER: 'anthropic' } });
    await expect(layer.ensureAvailable(userA)).rejects.toThrow(
      /LLM_PROVIDER is anthropic but ANTHROPIC_API_KEY is not set/,
    );
    const compatible = makeLayer({
      env: { NODE_ENV: 'test', OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl },
    });
    await expect(compatible.ensureAvailable(userA)).rejects.toThrow(/LLM_MODEL/);
  });

  it("a user's own key and provider take precedence over the server's", async () => {
    const env = {
      NODE_ENV: 'test',
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'server-key-0123456789',
      OPENAI_BASE_URL: llm.baseUrl,
    };
    const layer = makeLayer({
      env,
      settings: (userId) =>
        userId === userA
          ? { provider: 'openai', apiKey: 'user-key-abcdef', modelVersion: 'gpt-3.5-turbo' }
          : {},
    });
    llm.script({ replies: [{ text: 'hello' }] });
    const own = await layer
      .forCall({ userId: userA, agent: 'a', phase: 'p' })
      .generateText({ prompt: 'x' });
    const shared = await layer
      .forCall({ userId: userB, agent: 'a', phase: 'p' })
      .generateText({ prompt: 'x' });
    expect(own.usage).toMatchObject({ keySource: 'user', model: 'gpt-4.1-mini' });
    expect(shared.usage).toMatchObject({ keySource: 'server', model: 'gpt-4.1' });
    const [r1, r2] = llm.requests;
    expect(r1?.headers.authorization).toBe('Bearer user-key-abcdef');
    expect(r1?.model).toBe('gpt-4.1-mini');
    expect(r2?.headers.authorization).toBe('Bearer server-key-0123456789');
    expect(await layer.availability(userA)).toMatchObject({
      configured: true,
      source: 'user',
      provider: 'openai',
    });
  });

  it('refuses a user-supplied base URL on a loopback or private address', async () => {
    const layer = makeLayer({
      settings: {
        provider: 'openai-compatible',
        apiKey: 'user-key-abcdef',
        baseUrl: llm.baseUrl,
        modelVersion: 'custom',
        customModel: 'scripted-model',
      },
    });
    llm.script({ replies: [{ text: 'should never be sent' }] });
    const error = await layer
      .forCall({ userId: userA, agent: 'a', phase: 'p' })
      .generateText({ prompt: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaseUrlRefusedError);
    expect((error as Error).message).toMatch(/loopback address/);
    expect((error as Error).message).toMatch(/LLM_ALLOW_PRIVATE_BASE_URLS/);
    const availability = await layer.availability(userA);
    expect(availability.configured).toBe(false);
    expect(availability.hint).toMatch(/loopback/);

    for (const baseUrl of [
      `http://localhost:${llm.port}/v1`,
      'http://169.254.169.254/latest',
      'http://10.0.0.8:11434/v1',
      'http://[::1]:8080/v1',
      'http://[::ffff:127.0.0.1]:8080/v1',
      'file:///etc/passwd',
    ]) {
      const l = makeLayer({
        settings: {
          provider: 'openai-compatible',
          baseUrl,
          modelVersion: 'custom',
          customModel: 'm',
        },
      });
      await expect(l.ensureAvailable(userA), baseUrl).rejects.toBeInstanceOf(BaseUrlRefusedError);
    }

    // A host name that resolves to a loopback address is refused too.
    const hostname = os.hostname();
    const resolved = await dns.promises.lookup(hostname).catch(() => undefined);
    if (resolved?.address.startsWith('127.')) {
      const l = makeLayer({
        settings: {
          provider: 'openai-compatible',
          baseUrl: `http://${hostname}:${llm.port}/v1`,
          modelVersion: 'custom',
          customModel: 'm',
        },
      });
      await expect(l.ensureAvailable(userA)).rejects.toThrow(/loopback/);
    }
    expect(llm.requests).toHaveLength(0);
  });

  it('LLM_ALLOW_PRIVATE_BASE_URLS lets a user point at a private server', async () => {
    const layer = makeLayer({
      env: serverEnv({ LLM_ALLOW_PRIVATE_BASE_URLS: 'true' }),
      settings: {
        provider: 'openai-compatible',
        apiKey: 'user-key-abcdef',
        baseUrl: llm.baseUrl,
        modelVersion: 'custom',
        customModel: 'my-local-model',
      },
    });
    llm.script({ replies: [{ json: IDEA }] });
    const result = await layer
      .forCall({ userId: userA, agent: 'a', phase: 'p' })
      .generateObject(ideaSchema, { prompt: 'x' });
    expect(result.usage).toMatchObject({ keySource: 'user', model: 'my-local-model' });
    expect(llm.requests[0]?.headers.authorization).toBe('Bearer user-key-abcdef');
  });

  it('calls Anthropic through its Messages API with the server key', async () => {
    const layer = makeLayer({
      env: {
        NODE_ENV: 'test',
        LLM_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: 'server-key-0123456789',
        ANTHROPIC_BASE_URL: llm.baseUrl,
      },
      settings: { modelVersion: 'claude-3' },
    });
    llm.scriptPhase('ideation', 'claude', {
      json: IDEA,
      usage: { promptTokens: 2000, completionTokens: 1000 },
    });
    llm.scriptPhase('ideation', 'claude-text', { text: 'Plain answer.' });
    const handle = layer.forCall({ userId: userA, agent: 'ideation', phase: 'claude' });
    const result = await handle.generateObject(ideaSchema, { system: 'Be brief.', prompt: 'x' });
    expect(result.object).toEqual(IDEA);
    // claude-sonnet-4-5: $3 in, $15 out per million tokens.
    expect(result.usage).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(result.usage.costUsd).toBeCloseTo(0.021, 10);
    const [req] = llm.requestsFor('ideation', 'claude');
    expect(req?.path).toBe('/v1/messages');
    expect(req?.headers['x-api-key']).toBe('server-key-0123456789');
    expect(req?.system).toBe('Be brief.');
    expect(['json_schema', 'tool']).toContain(req?.responseFormat?.type);

    const text = await layer
      .forCall({ userId: userA, agent: 'ideation', phase: 'claude-text' })
      .generateText({ prompt: 'y' });
    expect(text.text).toBe('Plain answer.');
  });

  it("the administrator's base URL may be loopback (Ollama on localhost)", async () => {
    const layer = makeLayer({
      env: serverEnv({ OPENAI_COMPATIBLE_BASE_URL: `http://localhost:${llm.port}/v1` }),
    });
    llm.script({ replies: [{ text: 'local' }] });
    const result = await layer
      .forCall({ userId: userA, agent: 'a', phase: 'p' })
      .generateText({ prompt: 'x' });
    expect(result.text).toBe('local');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
