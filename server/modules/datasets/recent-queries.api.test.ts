import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecentQuery, RECENT_QUERIES_KEPT } from '../../../common/recent-queries';
import { settingsReplySchema } from '../../../common/settings';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { client, type Client } from '../../../test/client';

/**
 * The Data Explorer's recent queries (spec: ten kept, de-duplicated by query text), kept per
 * user in the settings' explorer section: a reload reads them back, another user does not see
 * them, and what a client sends is normalised the same way the screen adds to it.
 */

let t: TestApp;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  t = await createTestApp();
  alice = client(t.app, (await createUser(t.app)).accessToken);
  bob = client(t.app, (await createUser(t.app)).accessToken);
});
afterAll(() => t.close());

const recent = async (c: Client) =>
  settingsReplySchema.parse((await c.get('/api/settings')).body).data.settings.explorer
    .recentQueries;

describe('addRecentQuery', () => {
  it('puts the query first, drops its earlier copy and keeps ten', () => {
    expect(addRecentQuery(['gdp', 'cpi'], ' cpi ')).toEqual(['cpi', 'gdp']);
    expect(addRecentQuery(['gdp'], '   ')).toEqual(['gdp']);
    const many = Array.from({ length: 12 }, (_, i) => `q${i}`);
    const next = many.reduce<string[]>((list, q) => addRecentQuery(list, q), []);
    expect(next).toHaveLength(RECENT_QUERIES_KEPT);
    expect(next[0]).toBe('q11');
    expect(next.at(-1)).toBe('q2');
    // Text decides: a different case is a different query.
    expect(addRecentQuery(['GDP'], 'gdp')).toEqual(['gdp', 'GDP']);
  });
});

describe('recent queries in the settings', () => {
  it('start empty and survive a reload, per user', async () => {
    expect(await recent(alice)).toEqual([]);
    let list: string[] = [];
    for (const q of ['gdp', 'unemployment', 'gdp']) {
      list = addRecentQuery(list, q);
      const res = await alice.put('/api/settings', { explorer: { recentQueries: list } });
      expect(res.status).toBe(200);
    }
    expect(await recent(alice)).toEqual(['gdp', 'unemployment']);
    expect(await recent(bob)).toEqual([]);
  });

  it('normalises what is sent: trimmed, de-duplicated, ten at most', async () => {
    const sent = [' inflation ', 'inflation', ...Array.from({ length: 15 }, (_, i) => `q${i}`)];
    const res = await alice.put('/api/settings', { explorer: { recentQueries: sent } });
    expect(res.status).toBe(200);
    const kept = await recent(alice);
    expect(kept).toHaveLength(10);
    expect(kept.slice(0, 3)).toEqual(['inflation', 'q0', 'q1']);
  });

  it('leaves the list alone when other settings are saved', async () => {
    await alice.put('/api/settings', { explorer: { recentQueries: ['trade'] } });
    const res = await alice.put('/api/settings', { profile: { theme: 'dark' } });
    expect(res.status).toBe(200);
    expect(await recent(alice)).toEqual(['trade']);
  });

  it('refuses a list that is not one, an empty query and an overlong one with 400', async () => {
    for (const recentQueries of ['gdp', [''], ['x'.repeat(201)], [1]]) {
      const res = await alice.put('/api/settings', { explorer: { recentQueries } });
      expect(res.status, JSON.stringify(recentQueries)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect(await recent(alice)).toEqual(['trade']);
  });
});
