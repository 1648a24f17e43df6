import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  LlmServerControl,
  MALFORMED_CONTENT,
  startScriptedLlmServer,
  type ScriptedLlmServer,
} from '.';

/** The scripted model server itself: the protocol surface tests and e2e servers rely on. */

let llm: ScriptedLlmServer;
beforeAll(async () => {
  llm = await startScriptedLlmServer();
});
afterEach(() => llm.reset());
afterAll(() => llm.close());

async function chat(body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${llm.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as ChatReply,
  };
}

interface ChatReply {
  choices: Array<{ message: { content: string }; finish_reason: string }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  error: { message: string };
}

const agentHeaders = (agent: string, phase: string) => ({
  'x-econagents-agent': agent,
  'x-econagents-phase': phase,
});

describe('scripted LLM server', () => {
  it('answers by agent and phase, in order, repeating the last reply', async () => {
    llm.scriptPhase('ideation', 'generate', { json: { n: 1 } }, { text: 'second' });
    llm.scriptPhase('ideation', 'review', { text: 'review' });
    const msgs = { model: 'scripted-model', messages: [{ role: 'user', content: 'hi' }] };
    const r1 = await chat(msgs, agentHeaders('ideation', 'generate'));
    const r2 = await chat(msgs, agentHeaders('ideation', 'generate'));
    const r3 = await chat(msgs, agentHeaders('ideation', 'generate'));
    const r4 = await chat(msgs, agentHeaders('ideation', 'review'));
    expect(r1.json().choices[0]?.message.content).toBe('{"n":1}');
    expect(r2.json().choices[0]?.message.content).toBe('second');
    expect(r3.json().choices[0]?.message.content).toBe('second');
    expect(r4.json().choices[0]?.message.content).toBe('review');
    expect(r1.json().usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
    expect(llm.requestsFor('ideation')).toHaveLength(4);
    expect(llm.requests[0]).toMatchObject({ agent: 'ideation', phase: 'generate', prompt: 'hi' });
  });

  it('prefers specific rules, supports message matching and fall-through', async () => {
    llm.script({ replies: [{ text: 'generic' }] });
    llm.script({ agent: 'data', match: /outliers/i, replies: [{ text: 'outliers' }] });
    llm.script({ agent: 'data', replies: [{ text: 'once' }], whenDone: 'fall-through' });
    const ask = async (content: string) =>
      (await chat({ messages: [{ role: 'user', content }] }, agentHeaders('data', 'x'))).json()
        .choices[0]?.message.content;
    expect(await ask('Find OUTLIERS')).toBe('outliers');
    expect(await ask('other')).toBe('once');
    expect(await ask('other')).toBe('generic');
  });

  it('answers an unscripted request with a 400 naming agent and phase', async () => {
    const r = await chat({ messages: [{ role: 'user', content: 'x' }] }, agentHeaders('a', 'b'));
    expect(r.status).toBe(400);
    expect(r.json().error.message).toMatch(/no script for agent 'a' phase 'b'/);
  });

  it('injects errors with Retry-After, malformed output, usage overrides and finish reasons', async () => {
    llm.script({
      replies: [
        { error: { status: 429, retryAfter: 2 } },
        { error: { status: 503, message: 'overloaded' } },
        {
          malformed: true,
          usage: { promptTokens: 7, completionTokens: 9 },
          finishReason: 'length',
        },
      ],
    });
    const body = { messages: [{ role: 'user', content: 'x' }] };
    const r1 = await chat(body);
    expect(r1.status).toBe(429);
    expect(r1.headers.get('retry-after')).toBe('2');
    const r2 = await chat(body);
    expect(r2.status).toBe(503);
    expect(r2.json().error.message).toBe('overloaded');
    const r3 = (await chat(body)).json();
    expect(r3.choices[0]).toMatchObject({
      message: { content: MALFORMED_CONTENT },
      finish_reason: 'length',
    });
    expect(r3.usage).toEqual({ prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 });
    expect(llm.requests.map((r) => r.outcome)).toEqual([429, 503, 200]);
  });

  it('rejects json_schema when told to, and requires an API key when told to', async () => {
    llm.script({ replies: [{ json: {} }] });
    llm.setOptions({ jsonSchema: 'rejected', requireApiKey: 'secret' });
    const schemaBody = {
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema: {} } },
    };
    expect((await chat(schemaBody, { authorization: 'Bearer wrong' })).status).toBe(401);
    const r = await chat(schemaBody, { authorization: 'Bearer secret' });
    expect(r.status).toBe(400);
    expect(r.json().error.message).toMatch(/json_schema/);
    expect((await chat({ messages: [] }, { authorization: 'Bearer secret' })).status).toBe(200);
  });

  it('streams SSE chunks with usage, as the AI SDK reads them', async () => {
    llm.scriptPhase('literature', 'report', {
      text: 'A streamed report about labour markets.',
      usage: { promptTokens: 11, completionTokens: 8 },
    });
    const provider = createOpenAICompatible({
      name: 'scripted',
      baseURL: llm.baseUrl,
      includeUsage: true,
    });
    const result = streamText({
      model: provider.chatModel('scripted-model'),
      prompt: 'Write.',
      headers: agentHeaders('literature', 'report'),
    });
    let text = '';
    for await (const part of result.textStream) text += part;
    expect(text).toBe('A streamed report about labour markets.');
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(11);
    expect(usage.outputTokens).toBe(8);
    expect(llm.requests[0]?.stream).toBe(true);
  });

  it('answers the Anthropic Messages API too', async () => {
    llm.scriptPhase('a', 'p', { text: 'Bonjour', usage: { promptTokens: 3, completionTokens: 2 } });
    llm.setOptions({ requireApiKey: 'anthropic-key' });
    const send = (key: string) =>
      fetch(`${llm.baseUrl}/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': key,
          ...agentHeaders('a', 'p'),
        },
        body: JSON.stringify({
          model: 'claude-sonnet-4-5',
          system: [{ type: 'text', text: 'Be kind.' }],
          max_tokens: 100,
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
        }),
      });
    const denied = await send('wrong');
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
    const ok = await send('anthropic-key');
    expect(await ok.json()).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'Bonjour' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 2 },
    });
    expect(llm.requests[1]).toMatchObject({ system: 'Be kind.', prompt: 'Hello' });
  });

  it('lists models, and can drop a connection', async () => {
    const models = (await (await fetch(`${llm.baseUrl}/models`)).json()) as {
      data: Array<{ id: string }>;
    };
    expect(models.data.map((m) => m.id)).toEqual(['scripted-model']);
    llm.script({ replies: [{ dropConnection: true }] });
    await expect(chat({ messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow();
    expect(llm.requests[0]?.outcome).toBe('dropped');
  });

  it('measures concurrency from request intervals', async () => {
    llm.script({ replies: [{ delayMs: 100, text: 'slow' }] });
    const body = { messages: [{ role: 'user', content: 'x' }] };
    await Promise.all([chat(body), chat(body), chat(body)]);
    await chat(body);
    expect(llm.maxConcurrent()).toBe(3);
    expect(llm.inFlight()).toBe(0);
  });

  it('is controlled over HTTP', async () => {
    const control = new LlmServerControl(llm.url);
    await control.script({
      agent: 'code',
      match: { regex: 'python', flags: 'i' },
      replies: [{ text: 'py' }],
    });
    await control.setOptions({ models: ['m1', 'm2'] });
    const r = await chat(
      { messages: [{ role: 'user', content: 'Write Python' }] },
      agentHeaders('code', 'gen'),
    );
    expect(r.json().choices[0]?.message.content).toBe('py');
    expect((await control.requests()).map((q) => q.agent)).toEqual(['code']);
    await expect(control.script({ replies: [] } as never)).rejects.toThrow(/LLM server control/);
    await control.reset();
    expect(await control.requests()).toEqual([]);
  });
});

describe('standalone server (tsx test/llm-server/main.ts)', () => {
  it('starts on the given port, prints its base URL and serves scripts', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/llm-server/main.ts', '--port', '0'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
        setTimeout(() => reject(new Error('no start line')), 20_000);
      });
      const control = new LlmServerControl(baseUrl.replace(/\/v1$/, ''));
      await control.script({ agent: 'x', replies: [{ json: { ok: true } }] });
      const res = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-econagents-agent': 'x' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'q' }] }),
      });
      const json = (await res.json()) as { choices: Array<{ message: { content: string } }> };
      expect(json.choices[0]?.message.content).toBe('{"ok":true}');
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 40_000);
});
