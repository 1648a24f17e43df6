import { describe, expect, it } from 'vitest';
import { LITERATURE_MESSAGES } from '../../../common/teams/literature';
import type { ApiResult } from '../../api/client';
import type { SessionHttp } from '../shared';
import { literatureHttp, type RetryDeps } from './literatureApi';
import {
  EMPTY_OUTPUTS,
  literatureEndpoints,
  literaturePollDelay,
  outputsOf,
} from './literatureSession';
import { SAMPLE_GAPS, SAMPLE_PAPERS } from './sampleData';

const ID = '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f';

/** Answers every call with the next scripted reply and records the paths asked. */
function scripted(replies: ApiResult<unknown>[]) {
  const paths: string[] = [];
  const http: SessionHttp = {
    get: async (path) => {
      paths.push(path);
      return replies.shift()!;
    },
    post: async (path) => {
      paths.push(path);
      return replies.shift()!;
    },
  };
  return { http, paths };
}

const noWait: RetryDeps = { sleep: async () => undefined, now: () => 0, random: () => 0.5 };

describe('literatureHttp', () => {
  it('tries a 429 again and hands back the reply that follows', async () => {
    const s = scripted([
      { success: false, error: 'Too many', status: 429 },
      { success: true, sessionId: ID, logs: [] },
    ]);
    const reply = await literatureHttp(s.http, noWait).get(`/api/literature-team/logs/${ID}`);
    expect(reply).toEqual({ success: true, sessionId: ID, logs: [] });
    expect(s.paths).toHaveLength(2);
  });

  it("gives a refused start or feedback without any text the screen's fallback", async () => {
    const blank = () => ({ success: false as const, error: '', status: 500 });
    const s = scripted([blank(), blank(), { success: false, error: 'Queue is down', status: 500 }]);
    const http = literatureHttp(s.http, noWait);
    expect(await http.post('/api/literature-team/start', {})).toMatchObject({
      message: LITERATURE_MESSAGES.startFailed,
    });
    expect(await http.post('/api/literature-team/feedback', {})).toMatchObject({
      message: LITERATURE_MESSAGES.feedbackFailed,
    });
    // A failure that says something keeps its own words.
    expect(await http.post('/api/literature-team/start', {})).toMatchObject({
      error: 'Queue is down',
    });
  });
});

describe('the literature endpoints', () => {
  it('read the logs call from line 1 and refuse replies of another shape', () => {
    expect(
      literatureEndpoints.readLogs?.({ success: true, sessionId: ID, logs: ['a', 'b'] }, 5),
    ).toEqual([
      { seq: 1, message: 'a' },
      { seq: 2, message: 'b' },
    ]);
    expect(literatureEndpoints.readLogs?.({ logs: 'a' }, 0)).toBeUndefined();
    expect(
      literatureEndpoints.readStatus?.({ success: true, status: 'processing' }),
    ).toBeUndefined();
    expect(literatureEndpoints.readFeedback?.({ success: true, sessionId: ID })).toBeUndefined();
  });

  it('poll every 2 s, 4 s after a recent real-time update, longer after failures', () => {
    expect(literaturePollDelay(2000, undefined, undefined)).toBe(2000);
    expect(literaturePollDelay(2000, undefined, Date.now() - 1000)).toBe(4000);
    expect(literaturePollDelay(2000, { success: false, error: 'x', status: 429 }, undefined)).toBe(
      4000,
    );
    expect(
      literaturePollDelay(
        2000,
        { success: false, error: 'x', message: LITERATURE_MESSAGES.highDemand, status: 503 },
        undefined,
      ),
    ).toBe(4000);
    expect(literaturePollDelay(2000, { success: false, error: 'x', status: 500 }, undefined)).toBe(
      3000,
    );
  });
});

describe('outputsOf', () => {
  it('shows the reply’s outputs with what the checkpoint shows over them', () => {
    const reply = { papers: SAMPLE_PAPERS, researchGaps: SAMPLE_GAPS, finalReport: '# Old' };
    const shown = outputsOf(reply, { papers: SAMPLE_PAPERS.slice(0, 1), finalReport: '# New' });
    expect(shown.papers).toEqual(SAMPLE_PAPERS.slice(0, 1));
    expect(shown.researchGaps).toEqual(SAMPLE_GAPS);
    expect(shown.finalReport).toBe('# New');
    expect(shown.references).toEqual([]);
  });

  it('shows nothing rather than a reply of another shape', () => {
    expect(outputsOf({ papers: 'none' }, 'junk')).toEqual(EMPTY_OUTPUTS);
    expect(outputsOf(undefined, null)).toEqual(EMPTY_OUTPUTS);
  });
});
