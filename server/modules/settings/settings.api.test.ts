import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_SAVED_MESSAGE } from '../../../common/settings';
import {
  createSiblingApp,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../../test/app';
import { userSettings, users } from '../../db/schema';
import { client, type Client } from '../../../test/client';
import { createUserLlmSettingsLoader } from './llm-settings';

let t: TestApp;
let alice: Client;
let aliceUser: { id: string; email: string; password: string; accessToken: string };

beforeAll(async () => {
  t = await createTestApp();
  aliceUser = await createUser(t.app, { displayName: 'Alice' });
  alice = client(t.app, aliceUser.accessToken);
});
afterAll(() => t.close());

const OPENAI_KEY = 'sk-test-abcdefghijklmnop1234';
const FRED_KEY = 'fredkey0123456789abcdef';
/** Settings removed because no code honoured them (docs/product-rules.md). */
const REMOVED = [
  ['profile', 'dataAutoSave'],
  ['ai', 'agentAutonomy'],
  ['ai', 'saveAgentHistory'],
  ['ai', 'enableContinuousLearning'],
  ['data', 'cacheDatasets'],
  ['data', 'maxCacheSize'],
] as const;

describe('GET /api/settings', () => {
  it('gives the spec defaults before anything is saved', async () => {
    const u = client(t.app, (await createUser(t.app, { displayName: 'Dee Fault' })).accessToken);
    const res = await u.get('/api/settings');
    expect(res.status).toBe(200);
    const s = res.body.data.settings;
    expect(s.profile).toMatchObject({
      displayName: 'Dee Fault',
      role: 'researcher',
      theme: 'system',
      notifications: true,
    });
    expect(s.profile).not.toHaveProperty('dataAutoSave');
    expect(s.apiKeys).toEqual({
      llmApiKey: { hasKey: false, masked: null },
      worldBankApiKey: { hasKey: false, masked: null },
      fredApiKey: { hasKey: false, masked: null },
      kaggleApiKey: { hasKey: false, masked: null },
      kaggleUsername: '',
      llmProvider: 'openai',
      llmBaseUrl: '',
      maxConcurrentRequests: 5,
      requestTimeout: 30,
    });
    expect(s.ai).toEqual({
      modelVersion: 'gpt-4',
      customModel: '',
      temperature: 0.7,
      maxTokens: 2000,
    });
    expect(s.data).toEqual({
      defaultDataSource: 'world_bank',
      autoCleanData: true,
      imputationStrategy: 'mean',
      outlierDetection: 'z-score',
    });
    expect(s.codeGeneration).toEqual({
      defaultLanguage: 'python',
      frameworks: [],
      workflowMode: 'comprehensive',
    });
    expect(s.runtime).toEqual({ codeExecutionTimeLimitSeconds: 60 });
    expect(s.notifications).toEqual({
      accountApproved: true,
      sessionWaiting: true,
      sessionCompleted: true,
      sessionFailed: true,
    });
    expect(s.updatedAt).toBeNull();
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/settings', payload: {} })).statusCode,
    ).toBe(401);
  });
});

describe('PUT /api/settings', () => {
  it('saves the sent fields only and answers with the saved-settings message', async () => {
    const res = await alice.put('/api/settings', {
      profile: { theme: 'dark' },
      ai: { temperature: 0.3, maxTokens: 4000 },
      data: { imputationStrategy: 'knn', outlierDetection: 'isolation-forest' },
      codeGeneration: { defaultLanguage: 'julia', frameworks: ['JuMP', 'DataFrames'] },
      runtime: { codeExecutionTimeLimitSeconds: 120 },
      notifications: { sessionCompleted: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(SETTINGS_SAVED_MESSAGE);
    const s = res.body.data.settings;
    expect(s.profile.theme).toBe('dark');
    expect(s.ai).toMatchObject({ temperature: 0.3, maxTokens: 4000 });
    expect(s.ai.modelVersion).toBe('gpt-4');
    expect(s.data).toMatchObject({
      imputationStrategy: 'knn',
      outlierDetection: 'isolation-forest',
    });
    expect(s.codeGeneration).toEqual({
      defaultLanguage: 'julia',
      frameworks: ['JuMP', 'DataFrames'],
      workflowMode: 'comprehensive',
    });
    expect(s.runtime.codeExecutionTimeLimitSeconds).toBe(120);
    expect(s.notifications.sessionCompleted).toBe(false);
    expect(s.notifications.sessionFailed).toBe(true);
    expect(Date.parse(s.updatedAt)).not.toBeNaN();
    // A second save of another section keeps the first.
    const next = await alice.put('/api/settings', { data: { autoCleanData: false } });
    expect(next.body.data.settings.profile.theme).toBe('dark');
    expect(next.body.data.settings.data).toMatchObject({
      autoCleanData: false,
      imputationStrategy: 'knn',
    });
  });

  it('refuses out-of-range and unknown values with a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ai: { temperature: 1.5 } }, 'temperature'],
      [{ ai: { temperature: -0.1 } }, 'temperature'],
      [{ ai: { temperature: 0.25 } }, 'temperature'],
      [{ ai: { maxTokens: 0 } }, 'maxTokens'],
      [{ ai: { modelVersion: 'gpt-5' } }, 'modelVersion'],
      [{ data: { imputationStrategy: 'guess' } }, 'imputationStrategy'],
      [{ data: { outlierDetection: 'dbscan' } }, 'outlierDetection'],
      [{ data: { defaultDataSource: 'nasa' } }, 'defaultDataSource'],
      [{ apiKeys: { maxConcurrentRequests: 0 } }, 'maxConcurrentRequests'],
      [{ apiKeys: { requestTimeout: 10_000 } }, 'requestTimeout'],
      [{ apiKeys: { llmProvider: 'cohere' } }, 'llmProvider'],
      [{ apiKeys: { llmBaseUrl: 'ftp://x' } }, 'llmBaseUrl'],
      [{ apiKeys: { llmApiKey: 'has space' } }, 'llmApiKey'],
      [{ profile: { theme: 'neon' } }, 'theme'],
      [{ profile: { displayName: '' } }, 'displayName'],
      [{ codeGeneration: { defaultLanguage: 'cobol' } }, 'defaultLanguage'],
      [{ codeGeneration: { workflowMode: 'slow' } }, 'workflowMode'],
      [{ runtime: { codeExecutionTimeLimitSeconds: 1 } }, 'codeExecutionTimeLimitSeconds'],
      [{ runtime: { codeExecutionTimeLimitSeconds: 100_000 } }, 'codeExecutionTimeLimitSeconds'],
      [{ notifications: { sessionFailed: 'yes' } }, 'sessionFailed'],
      [{ ai: { modelVersion: 'custom' } }, 'customModel'],
    ];
    for (const [payload, field] of cases) {
      const res = await alice.put('/api/settings', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error, JSON.stringify(payload)).toContain(field);
    }
    // Nothing of the refused requests was saved.
    const s = (await alice.get('/api/settings')).body.data.settings;
    expect(s.ai.temperature).toBe(0.3);
    expect(s.ai.modelVersion).toBe('gpt-4');
  });

  it('changes the display name of the account', async () => {
    const res = await alice.put('/api/settings', { profile: { displayName: '  Alice Smith ' } });
    expect(res.status).toBe(200);
    expect(res.body.data.settings.profile.displayName).toBe('Alice Smith');
    const profile = await alice.get('/api/auth/profile');
    expect(profile.body.data.user.displayName).toBe('Alice Smith');
    // The e-mail is read-only here: an unknown field is ignored, the address stays.
    await alice.put('/api/settings', { profile: { email: 'new@test.example' } });
    expect((await alice.get('/api/auth/profile')).body.data.user.email).toBe(aliceUser.email);
  });

  it('keeps the model choice fields for a user-run model', async () => {
    const res = await alice.put('/api/settings', {
      apiKeys: { llmProvider: 'openai-compatible', llmBaseUrl: 'http://127.0.0.1:11434/v1' },
      ai: { modelVersion: 'custom', customModel: 'llama3.1' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.settings.apiKeys).toMatchObject({
      llmProvider: 'openai-compatible',
      llmBaseUrl: 'http://127.0.0.1:11434/v1',
    });
    expect(res.body.data.settings.ai).toMatchObject({
      modelVersion: 'custom',
      customModel: 'llama3.1',
    });
  });
});

describe('API keys', () => {
  it('stores keys sealed, shows them only masked, keeps them when omitted and clears on ""', async () => {
    const res = await alice.put('/api/settings', {
      apiKeys: { llmApiKey: OPENAI_KEY, fredApiKey: FRED_KEY },
    });
    expect(res.status).toBe(200);
    expect(res.raw.body).not.toContain(OPENAI_KEY);
    expect(res.raw.body).not.toContain(FRED_KEY);
    const keys = res.body.data.settings.apiKeys;
    expect(keys.llmApiKey).toEqual({ hasKey: true, masked: '••••••••1234' });
    expect(keys.fredApiKey).toEqual({ hasKey: true, masked: '••••••••cdef' });
    expect(keys.worldBankApiKey).toEqual({ hasKey: false, masked: null });

    // The raw database columns hold ciphertext, not the key.
    const [row] = await t.ctx.db
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, aliceUser.id));
    expect(row?.llmApiKeySealed).toBeTruthy();
    expect(row?.llmApiKeySealed).not.toContain(OPENAI_KEY);
    expect(row?.llmApiKeySealed).toMatch(/^v1\./);
    expect(row?.fredApiKeySealed).not.toContain(FRED_KEY);
    expect(JSON.stringify(row?.values)).not.toContain(OPENAI_KEY);

    const get = await alice.get('/api/settings');
    expect(get.raw.body).not.toContain(OPENAI_KEY);
    expect(get.body.data.settings.apiKeys.llmApiKey.hasKey).toBe(true);

    // Omitted: kept. Empty string: cleared.
    const keep = await alice.put('/api/settings', { ai: { maxTokens: 3000 } });
    expect(keep.body.data.settings.apiKeys.llmApiKey.hasKey).toBe(true);
    const clear = await alice.put('/api/settings', { apiKeys: { fredApiKey: '' } });
    expect(clear.body.data.settings.apiKeys.fredApiKey).toEqual({ hasKey: false, masked: null });
    expect(clear.body.data.settings.apiKeys.llmApiKey.hasKey).toBe(true);
    const [after] = await t.ctx.db
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, aliceUser.id));
    expect(after?.fredApiKeySealed).toBeNull();
  });

  it('stores Kaggle credentials: the username in the clear, the key sealed and masked, both clearable', async () => {
    const u = client(t.app, (await createUser(t.app)).accessToken);
    const KAGGLE_KEY = 'kaggle0123456789abcdef0123456789ab';
    const res = await u.put('/api/settings', {
      apiKeys: { kaggleUsername: ' jane.doe-42 ', kaggleApiKey: KAGGLE_KEY },
    });
    expect(res.status).toBe(200);
    expect(res.raw.body).not.toContain(KAGGLE_KEY);
    expect(res.body.data.settings.apiKeys).toMatchObject({
      kaggleUsername: 'jane.doe-42',
      kaggleApiKey: { hasKey: true, masked: '••••••••89ab' },
    });
    const get = await u.get('/api/settings');
    expect(get.raw.body).not.toContain(KAGGLE_KEY);
    expect(get.body.data.settings.apiKeys.kaggleUsername).toBe('jane.doe-42');

    const cleared = await u.put('/api/settings', {
      apiKeys: { kaggleUsername: '', kaggleApiKey: '' },
    });
    expect(cleared.body.data.settings.apiKeys).toMatchObject({
      kaggleUsername: '',
      kaggleApiKey: { hasKey: false, masked: null },
    });
  });

  it('refuses a Kaggle username that cannot be one, naming the field', async () => {
    const u = client(t.app, (await createUser(t.app)).accessToken);
    const res = await u.put('/api/settings', { apiKeys: { kaggleUsername: 'jane doe' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false });
    expect(JSON.stringify(res.body)).toMatch(/kaggleUsername may hold only letters/);
    const long = await u.put('/api/settings', { apiKeys: { kaggleUsername: 'a'.repeat(101) } });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toMatch(/kaggleUsername is too long/);
  });

  it('masks short keys completely', async () => {
    const u = client(t.app, (await createUser(t.app)).accessToken);
    const res = await u.put('/api/settings', { apiKeys: { worldBankApiKey: 'abc12' } });
    expect(res.body.data.settings.apiKeys.worldBankApiKey).toEqual({
      hasKey: true,
      masked: '••••••••',
    });
    expect(res.raw.body).not.toContain('abc12');
  });

  it('gives the model layer the decrypted key and the user’s choices', async () => {
    const load = createUserLlmSettingsLoader(t.ctx.db, t.ctx.secrets);
    const s = await load(aliceUser.id);
    expect(s).toEqual({
      provider: 'openai-compatible',
      apiKey: OPENAI_KEY,
      baseUrl: 'http://127.0.0.1:11434/v1',
      modelVersion: 'custom',
      customModel: 'llama3.1',
      temperature: 0.3,
      maxTokens: 3000,
      maxConcurrentRequests: 5,
      requestTimeoutSeconds: 30,
    });
    // The context's loader is the real one, too.
    expect((await t.ctx.loadUserLlmSettings(aliceUser.id)).apiKey).toBe(OPENAI_KEY);
  });

  it('leaves the provider to the server when the user never chose one', async () => {
    const u = await createUser(t.app);
    const load = createUserLlmSettingsLoader(t.ctx.db, t.ctx.secrets);
    expect(await load(u.id)).toEqual({
      modelVersion: 'gpt-4',
      temperature: 0.7,
      maxTokens: 2000,
      maxConcurrentRequests: 5,
      requestTimeoutSeconds: 30,
    });
    await client(t.app, u.accessToken).put('/api/settings', { ai: { temperature: 0.1 } });
    const after = await load(u.id);
    expect(after.provider).toBeUndefined();
    expect(after.temperature).toBe(0.1);
  });
});

describe('persistence', () => {
  it('keeps settings across a new app instance on the same database', async () => {
    const sibling = await createSiblingApp(t);
    const { app: app2, ctx: ctx2 } = sibling;
    try {
      const tokens = await login(app2, aliceUser.email, aliceUser.password);
      const res = await client(app2, tokens.accessToken).get('/api/settings');
      expect(res.status).toBe(200);
      const s = res.body.data.settings;
      expect(s.profile).toMatchObject({ displayName: 'Alice Smith', theme: 'dark' });
      expect(s.ai).toMatchObject({ temperature: 0.3, maxTokens: 3000, customModel: 'llama3.1' });
      expect(s.data.imputationStrategy).toBe('knn');
      expect(s.apiKeys.llmApiKey).toEqual({ hasKey: true, masked: '••••••••1234' });
      expect(res.raw.body).not.toContain(OPENAI_KEY);
      expect((await ctx2.loadUserLlmSettings(aliceUser.id)).apiKey).toBe(OPENAI_KEY);
    } finally {
      await sibling.close();
    }
  });

  it('falls back to defaults for stored values that are no longer valid', async () => {
    const u = await createUser(t.app);
    await client(t.app, u.accessToken).put('/api/settings', { profile: { theme: 'dark' } });
    await t.ctx.db
      .update(userSettings)
      .set({ values: { profile: { theme: 'sepia' }, ai: { temperature: 7 } } })
      .where(eq(userSettings.userId, u.id));
    const s = (await client(t.app, u.accessToken).get('/api/settings')).body.data.settings;
    expect(s.profile.theme).toBe('system');
    expect(s.ai.temperature).toBe(0.7);
  });

  it('neither keeps nor returns the removed settings no code honoured', async () => {
    const u = await createUser(t.app);
    const c = client(t.app, u.accessToken);
    // Stored by an older version: dropped on read.
    await c.put('/api/settings', { profile: { theme: 'dark' } });
    await t.ctx.db
      .update(userSettings)
      .set({
        values: {
          profile: { theme: 'dark', dataAutoSave: false },
          ai: { agentAutonomy: 'high', saveAgentHistory: false, enableContinuousLearning: true },
          data: { cacheDatasets: false, maxCacheSize: 1200 },
        },
      })
      .where(eq(userSettings.userId, u.id));
    const s = (await c.get('/api/settings')).body.data.settings;
    expect(s.profile.theme).toBe('dark');
    for (const [section, field] of REMOVED) expect(s[section]).not.toHaveProperty(field);
    // Sent by an older client: the save succeeds, and the next write leaves none stored.
    const res = await c.put('/api/settings', {
      ai: { agentAutonomy: 'low', temperature: 0.2 },
      data: { cacheDatasets: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.settings.ai.temperature).toBe(0.2);
    const [row] = await t.ctx.db.select().from(userSettings).where(eq(userSettings.userId, u.id));
    const stored = JSON.stringify(row?.values);
    for (const [, field] of REMOVED) expect(stored).not.toContain(field);
  });

  it('migration 0011 strips the removed settings from stored documents and keeps the rest', async () => {
    const u = await createUser(t.app);
    await client(t.app, u.accessToken).put('/api/settings', { profile: { theme: 'dark' } });
    const legacy = {
      profile: { theme: 'dark', dataAutoSave: false },
      ai: { temperature: 0.2, agentAutonomy: 'high', saveAgentHistory: false },
      data: { cacheDatasets: false, maxCacheSize: 1200, imputationStrategy: 'knn' },
    };
    await t.ctx.db
      .update(userSettings)
      .set({ values: { ...legacy, ai: { ...legacy.ai, enableContinuousLearning: true } } })
      .where(eq(userSettings.userId, u.id));
    const file = new URL('../../db/migrations/0011_drop_unused_settings.sql', import.meta.url);
    await t.ctx.db.execute(sql.raw(await readFile(file, 'utf8')));
    const [row] = await t.ctx.db.select().from(userSettings).where(eq(userSettings.userId, u.id));
    expect(row?.values).toEqual({
      profile: { theme: 'dark' },
      ai: { temperature: 0.2 },
      data: { imputationStrategy: 'knn' },
    });
  });

  it('deletes the settings with the account', async () => {
    const u = await createUser(t.app);
    await client(t.app, u.accessToken).put('/api/settings', { apiKeys: { llmApiKey: OPENAI_KEY } });
    await t.ctx.db.delete(users).where(eq(users.id, u.id));
    const rows = await t.ctx.db.select().from(userSettings).where(eq(userSettings.userId, u.id));
    expect(rows).toEqual([]);
  });
});
