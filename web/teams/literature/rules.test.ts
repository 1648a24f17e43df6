import { describe, expect, it } from 'vitest';
import { LITERATURE_MESSAGES } from '../../../common/teams/literature';
import type { ApiResult } from '../../api/client';
import { withRetries } from './literatureApi';
import { backoffMs, datedFileName, isDecodingError, nextPollDelay, reportFromLogs } from './rules';

describe('poll delay', () => {
  const now = 100_000;
  it('is 2 s, or 4 s when a real-time message arrived in the last 12 s', () => {
    expect(nextPollDelay(2000, 'ok', undefined, now)).toBe(2000);
    expect(nextPollDelay(2000, 'ok', now - 11_999, now)).toBe(4000);
    expect(nextPollDelay(2000, 'ok', now - 12_000, now)).toBe(2000);
    // Back to normal after a failure streak.
    expect(nextPollDelay(15_000, 'ok', undefined, now)).toBe(2000);
  });

  it('doubles up to 30 s after a 429 or high-demand failure', () => {
    const seen: number[] = [];
    let d = 2000;
    for (let i = 0; i < 6; i++) seen.push((d = nextPollDelay(d, 'high-demand', undefined, now)));
    expect(seen).toEqual([4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('grows by 1 s up to 15 s after another failure', () => {
    let d = 2000;
    const seen: number[] = [];
    for (let i = 0; i < 15; i++) seen.push((d = nextPollDelay(d, 'failed', undefined, now)));
    expect(seen.slice(0, 3)).toEqual([3000, 4000, 5000]);
    expect(seen.at(-1)).toBe(15_000);
  });
});

describe('429 retries', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('backs off from 1 s, doubling to 30 s, with 10% jitter', () => {
    expect(backoffMs(0, () => 0.5)).toBe(1000);
    expect(backoffMs(0, () => 0)).toBeCloseTo(900);
    expect(backoffMs(0, () => 1)).toBeCloseTo(1100);
    expect([1, 2, 3, 4].map((r) => backoffMs(r, () => 0.5))).toEqual([2000, 4000, 8000, 16_000]);
    expect(backoffMs(9, () => 1)).toBe(30_000);
  });

  const tooMany = (retryAfter?: string): ApiResult<unknown> => ({
    success: false,
    error: 'HTTP error! status: 429',
    status: 429,
    ...(retryAfter ? { retryAfter } : {}),
  });

  it('retries up to 5 times honouring Retry-After, then says high demand', async () => {
    const waits: number[] = [];
    let calls = 0;
    const deps = {
      sleep: async (ms: number) => void waits.push(ms),
      now: () => now,
      random: () => 0.5,
    };
    const result = await withRetries(async () => {
      calls++;
      return calls === 1
        ? tooMany('2')
        : calls === 2
          ? tooMany('Tue, 01 Jan 2030 00:00:07 GMT')
          : tooMany();
    }, deps);
    expect(calls).toBe(6);
    expect(waits).toEqual([2000, 7000, 4000, 8000, 16_000]);
    expect(result).toMatchObject({ success: false, message: LITERATURE_MESSAGES.highDemand });
  });

  it('returns other replies at once', async () => {
    let calls = 0;
    const deps = { sleep: async () => undefined, now: () => now, random: () => 0.5 };
    const ok = await withRetries(
      async () => (++calls === 1 ? tooMany('0') : { success: true }),
      deps,
    );
    expect(ok).toEqual({ success: true });
    expect(calls).toBe(2);
    const notFound = await withRetries(
      async () => ({ success: false, error: 'HTTP error! status: 404', status: 404 }),
      deps,
    );
    expect(notFound).toMatchObject({ status: 404 });
  });
});

describe('screen helpers', () => {
  it('recognises character-decoding errors (hidden on this screen)', () => {
    expect(isDecodingError("'utf-8' codec can't decode byte 0xe9: invalid continuation byte")).toBe(
      true,
    );
    expect(isDecodingError('UnicodeDecodeError in source')).toBe(true);
    expect(isDecodingError('OpenAlex: HTTP 503')).toBe(false);
  });

  it('reads a report preview from the newest FINAL_REPORT log line', () => {
    expect(reportFromLogs(['a', 'FINAL_REPORT: "# One\\nline"', 'FINAL_REPORT: # Two'])).toBe(
      '# Two',
    );
    expect(reportFromLogs(['FINAL_REPORT: "# One\\nline"'])).toBe('# One\nline');
    expect(reportFromLogs(['nothing here'])).toBeUndefined();
  });

  it('puts the date in file names', () => {
    expect(datedFileName('literature-review', 'md', new Date(2030, 0, 5))).toBe(
      'literature-review-2030-01-05.md',
    );
  });
});
