import { describe, expect, it } from 'vitest';
import { backoffDelayMs, retryAfterMs } from './retry';

describe('retryAfterMs', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('reads seconds, fractional seconds and HTTP dates', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 1.5 ', now)).toBe(1500);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:07 GMT', now)).toBe(7000);
  });

  it('treats a date in the past as no wait, and unreadable or missing values as none given', () => {
    expect(retryAfterMs('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-3', now)).toBeUndefined();
    expect(retryAfterMs('1e3', now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  const shape = { baseDelayMs: 1000, maxDelayMs: 30_000, jitter: 0.1 };

  it('doubles from the base delay up to the cap', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => backoffDelayMs(shape, r, mid))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it('adds or removes at most the jitter fraction', () => {
    expect(backoffDelayMs(shape, 2, () => 0)).toBeCloseTo(3600);
    expect(backoffDelayMs(shape, 2, () => 1)).toBeCloseTo(4400);
    expect(backoffDelayMs(shape, 9, () => 1)).toBe(30_000);
  });
});
