import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedLlmServer } from '../../../test/llm-server';
import { ConfigError, loadConfig } from '../../config';
import { generateText } from 'ai';
import {
  createGuardedFetch,
  findForbiddenAddress,
  forbiddenRange,
  guardedFetch,
  parseUserBaseUrl,
} from './base-url-guard';
import { BaseUrlRefusedError, ModelNotConfiguredError } from './errors';
import { resolveModelTarget } from './models';
import { createLanguageModel } from './providers';
import { buildPriceTable, estimateCostUsd, priceOf } from './prices';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfterMs } from './retry';
import { serverLlmAvailability } from './server-config';
import { extractJson, validateReply } from './structured';
import { DEFAULT_USER_LLM_SETTINGS, type UserLlmSettings } from '../../platform/llm-settings';

const llmConfig = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).llm;
const user = (s: Partial<UserLlmSettings> = {}): UserLlmSettings => ({
  ...DEFAULT_USER_LLM_SETTINGS,
  ...s,
});

describe('Retry-After and backoff', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(parseRetryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(parseRetryAfterMs({ 'Retry-After': '1.5' }, now)).toBe(1500);
    expect(parseRetryAfterMs({ 'retry-after': 'Tue, 01 Jan 2030 00:00:07 GMT' }, now)).toBe(7000);
    expect(parseRetryAfterMs({ 'retry-after': 'Mon, 31 Dec 2029 23:59:00 GMT' }, now)).toBe(0);
    expect(parseRetryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
    expect(parseRetryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterMs({}, now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  it('doubles from 1 s, caps at 30 s, with at most 10% jitter', () => {
    const exact = { ...DEFAULT_RETRY_POLICY, random: () => 0.5 };
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(exact, n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    const low = { ...DEFAULT_RETRY_POLICY, random: () => 0 };
    const high = { ...DEFAULT_RETRY_POLICY, random: () => 0.999999 };
    expect(backoffDelayMs(low, 2)).toBeCloseTo(3600);
    expect(backoffDelayMs(high, 2)).toBeCloseTo(4400, 0);
    expect(backoffDelayMs(high, 5)).toBe(30000);
    expect(DEFAULT_RETRY_POLICY.maxRetries).toBe(5);
  });
});

describe('prices', () => {
  const table = buildPriceTable(undefined);
  it('prices known models, dated snapshots and aliases; unknown models are null', () => {
    expect(estimateCostUsd(table, 'gpt-4.1', 1_000_000, 1_000_000)).toBe(10);
    expect(priceOf(table, 'gpt-4.1-mini-2025-04-14')).toEqual({ input: 0.4, output: 1.6 });
    expect(priceOf(table, 'claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15 });
    expect(estimateCostUsd(table, 'llama3.1:8b', 100, 100)).toBeNull();
    expect(estimateCostUsd(table, 'gpt-4.1', 0, 0)).toBe(0);
  });

  it('LLM_PRICES_JSON adds and replaces prices, and is validated', () => {
    const cfg = llmConfig({
      LLM_PRICES_JSON:
        '{"llama3.1": {"input": 0, "output": 0}, "gpt-4.1": {"input": 1, "output": 1}}',
    });
    const t = buildPriceTable(cfg.prices);
    expect(estimateCostUsd(t, 'llama3.1', 1000, 1000)).toBe(0);
    expect(estimateCostUsd(t, 'gpt-4.1', 1_000_000, 0)).toBe(1);
    expect(() => llmConfig({ LLM_PRICES_JSON: 'not json' })).toThrow(ConfigError);
    expect(() => llmConfig({ LLM_PRICES_JSON: '{"m": {"input": -1, "output": 1}}' })).toThrow(
      /LLM_PRICES_JSON/,
    );
  });
});

describe('model resolution', () => {
  const openai = llmConfig({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'k' });
  const anthropic = llmConfig({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'k' });

  it('maps the spec model choices to current model ids per provider', () => {
    expect(resolveModelTarget(openai, user({ modelVersion: 'gpt-4' })).model).toBe('gpt-4.1');
    expect(resolveModelTarget(openai, user({ modelVersion: 'gpt-3.5-turbo' })).model).toBe(
      'gpt-4.1-mini',
    );
    expect(resolveModelTarget(anthropic, user({ modelVersion: 'claude-3' })).model).toBe(
      'claude-sonnet-4-5',
    );
    expect(resolveModelTarget(anthropic, user({ modelVersion: 'gpt-3.5-turbo' })).model).toBe(
      'claude-haiku-4-5',
    );
  });

  it('LLM_MODEL replaces the presets on the server key; a custom model id wins over it', () => {
    const cfg = llmConfig({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'k', LLM_MODEL: 'gpt-5-mini' });
    expect(resolveModelTarget(cfg, user({ modelVersion: 'gpt-3.5-turbo' })).model).toBe(
      'gpt-5-mini',
    );
    expect(
      resolveModelTarget(cfg, user({ modelVersion: 'custom', customModel: ' o4-mini ' })).model,
    ).toBe('o4-mini');
    expect(() => resolveModelTarget(cfg, user({ modelVersion: 'custom' }))).toThrow(
      /custom model but no model id/,
    );
  });

  it("a user's key uses their provider (inferred from the model when not chosen), never LLM_MODEL", () => {
    const cfg = llmConfig({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'k', LLM_MODEL: 'gpt-5' });
    const t = resolveModelTarget(cfg, user({ apiKey: 'mine', modelVersion: 'claude-3' }));
    expect(t).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'mine',
      source: 'user',
      untrustedBaseUrl: false,
    });
    const o = resolveModelTarget(cfg, user({ provider: 'openai', apiKey: 'mine' }));
    expect(o).toMatchObject({ model: 'gpt-4.1', source: 'user' });
    // The default provider choice without a key does not count as the user's own provider.
    expect(resolveModelTarget(cfg, user({ provider: 'anthropic' })).source).toBe('server');
  });

  it("a user's OpenAI-compatible server needs a base URL and a model id", () => {
    const none = llmConfig({});
    expect(() =>
      resolveModelTarget(none, user({ provider: 'openai-compatible', apiKey: 'x' })),
    ).toThrow(/no base URL is set/);
    expect(() =>
      resolveModelTarget(
        none,
        user({ provider: 'openai-compatible', baseUrl: 'https://llm.example.org/v1' }),
      ),
    ).toThrow(/Choose "custom"/);
    const t = resolveModelTarget(
      none,
      user({
        provider: 'openai-compatible',
        baseUrl: 'https://llm.example.org/v1',
        modelVersion: 'custom',
        customModel: 'qwen3',
      }),
    );
    expect(t).toMatchObject({ source: 'user', untrustedBaseUrl: true, apiKey: undefined });
  });

  it('infers the server provider from the one that is configured and says what is missing', () => {
    expect(resolveModelTarget(llmConfig({ ANTHROPIC_API_KEY: 'k' }), user()).provider).toBe(
      'anthropic',
    );
    const error = (() => {
      try {
        resolveModelTarget(llmConfig({}), user());
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ModelNotConfiguredError);
    expect((error as ModelNotConfiguredError).missing).toEqual(['LLM_PROVIDER']);
    expect(serverLlmAvailability(loadConfig({ NODE_ENV: 'test' }))).toMatchObject({
      configured: false,
    });
    expect(
      serverLlmAvailability(
        loadConfig({ NODE_ENV: 'test', LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'k' }),
      ),
    ).toEqual({ configured: true, provider: 'openai', model: 'gpt-4.1' });
  });
});

describe('SSRF guard for user base URLs', () => {
  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::ffff:127.0.0.1',
      'fd00:ec2::254',
      'fe80::1',
      '224.0.0.1',
    ]) {
      expect(forbiddenRange(a), a).toBeDefined();
    }
    for (const a of ['8.8.8.8', '104.18.0.1', '2606:4700:4700::1111']) {
      expect(forbiddenRange(a), a).toBeUndefined();
    }
  });

  it('refuses non-http schemes, localhost and literal private addresses', () => {
    expect(() => parseUserBaseUrl('ftp://example.org')).toThrow(BaseUrlRefusedError);
    expect(() => parseUserBaseUrl('not a url')).toThrow(/not a valid URL/);
    expect(() => parseUserBaseUrl('http://api.localhost/v1')).toThrow(/loopback/);
    expect(() => parseUserBaseUrl('http://[fd00::1]/v1')).toThrow(/private network/);
    expect(() => parseUserBaseUrl('http://169.254.169.254/')).toThrow(/link-local/);
    expect(parseUserBaseUrl('https://api.example.org/v1').hostname).toBe('api.example.org');
  });

  it('checks resolved addresses again at connect time (no request reaches the server)', async () => {
    const llm = await startScriptedLlmServer();
    try {
      // Not refused by name here: the connect-time DNS check must catch it.
      const error = await guardedFetch(`http://localhost:${llm.port}/v1/models`).catch(
        (e: unknown) => e,
      );
      expect(findForbiddenAddress(error)?.range).toBe('loopback');
      const literal = await guardedFetch(`http://127.0.0.1:${llm.port}/v1/models`).catch(
        (e: unknown) => e,
      );
      expect(findForbiddenAddress(literal)?.range).toBe('loopback');
      expect(llm.requests).toHaveLength(0);
    } finally {
      await llm.close();
    }
  });
});

describe('guarded fetch with the AI SDK', () => {
  it('carries a whole model call when the address is allowed, and does not follow redirects', async () => {
    const llm = await startScriptedLlmServer();
    try {
      llm.script({ replies: [{ text: 'through the guard' }] });
      // Everything allowed: only the fetch plumbing (undici agent, lookup, Response) is tested.
      const fetch = createGuardedFetch(() => undefined);
      const model = createLanguageModel(
        {
          provider: 'openai-compatible',
          model: 'scripted-model',
          apiKey: 'k',
          baseUrl: `http://localhost:${llm.port}/v1`,
          source: 'user',
          untrustedBaseUrl: true,
        },
        fetch,
      );
      const result = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(result.text).toBe('through the guard');
      expect(result.usage.inputTokens).toBeGreaterThan(0);

      // A redirect comes back as is: following it could reach an address never checked.
      const redirector = http.createServer((_req, res) => {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      });
      await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
      const port = (redirector.address() as AddressInfo).port;
      try {
        const redirect = await fetch(`http://localhost:${port}/v1/chat/completions`);
        expect(redirect.status).toBe(302);
      } finally {
        redirector.close();
      }
    } finally {
      await llm.close();
    }
  });
});

describe('prompted JSON parsing', () => {
  const schema = z.object({ a: z.number() });
  it('reads plain, fenced and embedded JSON', () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Sure:\n```json\n{"a":2}\n```')).toEqual({ ok: true, value: { a: 2 } });
    expect(extractJson('The answer is {"a":3}. Done.')).toEqual({ ok: true, value: { a: 3 } });
    expect(extractJson('{"a": [1, 2,')).toEqual({ ok: false });
  });
  it('describes what is wrong', () => {
    expect(validateReply(schema, '{"a":"x"}')).toMatchObject({ ok: false });
    const bad = validateReply(schema, '{"a":"x"}');
    expect(!bad.ok && bad.error).toMatch(/did not match the schema[\s\S]*a/);
    expect(validateReply(schema, '')).toEqual({ ok: false, error: 'the reply was empty.' });
    expect(validateReply(schema, 'nope')).toEqual({
      ok: false,
      error: 'the reply was not valid JSON.',
    });
  });
});
