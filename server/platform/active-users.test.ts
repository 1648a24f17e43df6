import { describe, expect, it } from 'vitest';
import type { Database } from '../db/connect';
import type { ActiveUser } from './access';
import { createActiveUserCache } from './active-users';

const db = {} as Database;

function user(tokenVersion: number, role: ActiveUser['role'] = 'researcher'): ActiveUser {
  return {
    id: 'u1',
    email: 'u1@test.example',
    displayName: 'U',
    role,
    status: 'approved',
    tokenVersion,
  };
}

/** A database stand-in: the row it holds now, and how many times it was read. */
function fakeRows(initial: ActiveUser | undefined) {
  const state = { row: initial, reads: 0 };
  return {
    state,
    load: async () => {
      state.reads++;
      return state.row;
    },
  };
}

describe('active user cache', () => {
  it('reads a user once, then answers from memory until invalidated', async () => {
    const rows = fakeRows(user(1));
    const cache = createActiveUserCache(db, { load: rows.load });
    expect(await cache.get('u1', 1)).toMatchObject({ tokenVersion: 1 });
    expect(await cache.get('u1', 1)).toMatchObject({ tokenVersion: 1 });
    expect(rows.state.reads).toBe(1);
    rows.state.row = user(2, 'viewer');
    expect((await cache.get('u1', 1))?.role).toBe('researcher');
    cache.invalidate('u1');
    expect(await cache.get('u1', 1)).toMatchObject({ tokenVersion: 2, role: 'viewer' });
    expect(rows.state.reads).toBe(2);
  });

  it('reads again after the time to live, and for a token newer than the row it holds', async () => {
    let clock = 0;
    const rows = fakeRows(user(1));
    const cache = createActiveUserCache(db, { load: rows.load, ttlMs: 100, now: () => clock });
    await cache.get('u1', 1);
    clock = 99;
    await cache.get('u1', 1);
    expect(rows.state.reads).toBe(1);
    clock = 100;
    expect(cache.has('u1')).toBe(false);
    await cache.get('u1', 1);
    expect(rows.state.reads).toBe(2);
    // Signed in again after a change nobody announced: the new token's version is newer.
    rows.state.row = user(2);
    expect(await cache.get('u1', 2)).toMatchObject({ tokenVersion: 2 });
    expect(rows.state.reads).toBe(3);
  });

  it('does not keep users who may not act, nor a row read while an invalidation came in', async () => {
    const rows = fakeRows(undefined);
    const cache = createActiveUserCache(db, { load: rows.load });
    expect(await cache.get('u1')).toBeUndefined();
    expect(cache.has('u1')).toBe(false);

    // A read that started before the change and answered after its message.
    let release!: () => void;
    const slow = createActiveUserCache(db, {
      load: () =>
        new Promise<ActiveUser>((resolve) => {
          release = () => resolve(user(1));
        }),
    });
    const pending = slow.get('u1');
    slow.invalidate('u1');
    release();
    expect(await pending).toMatchObject({ tokenVersion: 1 });
    expect(slow.has('u1')).toBe(false);

    rows.state.row = user(3);
    await cache.get('u1');
    expect(cache.has('u1')).toBe(true);
    cache.clear();
    expect(cache.has('u1')).toBe(false);
  });
});
