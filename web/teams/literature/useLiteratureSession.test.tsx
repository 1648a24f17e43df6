import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wsSessionUpdateSchema } from '../../../common/agents';
import {
  LITERATURE_MESSAGES,
  type LiteratureFeedbackReply,
  type LiteratureStatusReply,
  type StartLiteratureReply,
} from '../../../common/teams/literature';
import type { TeamLogsReply } from '../../../common/teams/shared';
import type { ApiFailure, ApiResult } from '../../api/client';
import { TeamSocket } from '../../api/ws';
import type { SessionHttp } from '../shared';
import { makeSession } from '../shared/testing/fakeRuntime';
import { fakeSocketFactory, ManualTimers } from '../shared/testing/fakeSocket';
import { SAMPLE_PAPERS } from './sampleData';
import { useLiteratureSession } from './useLiteratureSession';

const ID = '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f';

function statusReply(over: Partial<LiteratureStatusReply> = {}): LiteratureStatusReply {
  return {
    success: true,
    sessionId: ID,
    status: 'processing',
    phase: 2,
    checkpoint: null,
    checkpointData: null,
    logs: ['one'],
    error: null,
    updatedAt: new Date().toISOString(),
    verification: null,
    documents: null,
    papers: [],
    researchGaps: [],
    trends: [],
    references: [],
    finalReport: null,
    ...over,
  };
}

const logsReply = (logs: string[]): TeamLogsReply => ({ success: true, sessionId: ID, logs });

const fail = (status: number, extra: Partial<ApiFailure> = {}): ApiFailure => ({
  success: false,
  error: `HTTP error! status: ${status}`,
  status,
  ...extra,
});

function startReply(): StartLiteratureReply {
  const session = makeSession({ sessionId: ID, status: 'processing', phase: 1 });
  return { success: true, sessionId: ID, status: 'processing', phase: 1, error: null, session };
}

function feedbackReply(): LiteratureFeedbackReply {
  const session = makeSession({ sessionId: ID, status: 'processing', phase: 2 });
  return {
    success: true,
    sessionId: ID,
    status: 'processing',
    phase: 2,
    error: null,
    session,
    papers: [],
    researchGaps: [],
    trends: [],
    references: [],
    finalReport: null,
    verification: null,
    documents: null,
  };
}

type Call = 'start' | 'status' | 'logs' | 'feedback' | 'reset';

/**
 * The literature routes scripted: each call takes the next queued reply of its kind (the last
 * one repeats); every call is recorded by kind, with its path and body.
 */
function fakeHttp() {
  const calls: Call[] = [];
  const sent: Array<{ call: Call; path: string; body?: unknown }> = [];
  const queues: Record<Exclude<Call, 'reset'>, ApiResult<unknown>[]> = {
    start: [startReply()],
    status: [statusReply()],
    logs: [logsReply(['one', 'two'])],
    feedback: [feedbackReply()],
  };
  const take = (q: ApiResult<unknown>[]) => (q.length > 1 ? q.shift()! : q[0]!);
  const record = (call: Call, path: string, body?: unknown) => {
    calls.push(call);
    sent.push({ call, path, ...(body === undefined ? {} : { body }) });
  };
  const http: SessionHttp = {
    get: async (path) => {
      const call = path.startsWith('/api/literature-team/status/') ? 'status' : 'logs';
      record(call, path);
      return take(queues[call]);
    },
    post: async (path, body) => {
      if (path.endsWith('/reset')) {
        record('reset', path, body);
        return { success: true };
      }
      const call = path.endsWith('/start') ? 'start' : 'feedback';
      record(call, path, body);
      return take(queues[call]);
    },
  };
  return { http, calls, sent, queues };
}

function setup(fake = fakeHttp(), initialSessionId?: string) {
  const factory = fakeSocketFactory();
  const socket = new TeamSocket({
    url: 'ws://example.test/ws',
    getToken: () => 't',
    createSocket: factory.create,
    timers: new ManualTimers(),
    pingIntervalMs: 0,
  });
  const hook = renderHook(() =>
    useLiteratureSession({ http: fake.http, socket, initialSessionId }),
  );
  const advance = (ms: number) =>
    act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  const push = (data: Record<string, unknown>) =>
    act(() =>
      factory.sockets[0]!.serverSend(
        wsSessionUpdateSchema.parse({
          type: 'session-update',
          sessionId: ID,
          teamId: 'literature',
          status: 'processing',
          phase: 2,
          checkpoint: null,
          timestamp: new Date().toISOString(),
          updateType: 'log_update',
          data,
        }),
      ),
    );
  return { ...fake, hook, advance, push, factory };
}

async function started() {
  const t = setup();
  await act(async () => {
    await t.hook.result.current.start({ researchQuestion: 'Why?' });
  });
  act(() => t.factory.sockets[0]?.serverOpen());
  t.calls.length = 0;
  return t;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('useLiteratureSession polling', () => {
  it('alternates the status and logs calls every 2 s', async () => {
    const t = await started();
    expect(t.hook.result.current.status).toBe('processing');
    await t.advance(1999);
    expect(t.calls).toEqual([]);
    await t.advance(1);
    expect(t.calls).toEqual(['status']);
    await t.advance(2000);
    expect(t.calls).toEqual(['status', 'logs']);
    await t.advance(2000);
    expect(t.calls).toEqual(['status', 'logs', 'status']);
    expect(t.hook.result.current.logs).toEqual(['one', 'two']);
  });

  it('waits 4 s while real-time messages arrive, and 2 s again after 12 s of silence', async () => {
    const t = await started();
    t.push({
      seq: 1,
      message: 'from the socket',
      level: 'info',
      timestamp: new Date().toISOString(),
    });
    await t.advance(2000);
    expect(t.calls).toEqual(['status']);
    expect(t.hook.result.current.pollDelayMs).toBe(4000);
    await t.advance(3999);
    expect(t.calls).toEqual(['status']);
    await t.advance(1);
    expect(t.calls).toEqual(['status', 'logs']);
    // 12 s after the message the normal rhythm returns.
    await t.advance(4000);
    await t.advance(4000);
    expect(t.hook.result.current.pollDelayMs).toBe(2000);
  });

  it('doubles the wait up to 30 s after high-demand failures, then recovers', async () => {
    const t = setup();
    t.queues.status = [
      fail(429, { error: LITERATURE_MESSAGES.highDemand }),
      fail(429, { error: LITERATURE_MESSAGES.highDemand }),
      fail(429, { error: LITERATURE_MESSAGES.highDemand }),
      statusReply(),
    ];
    t.queues.logs = [
      fail(503, { message: LITERATURE_MESSAGES.highDemand }),
      fail(429),
      logsReply([]),
    ];
    await act(async () => {
      await t.hook.result.current.start({ researchQuestion: 'Why?' });
    });
    const delays: number[] = [];
    let elapsed = 2000;
    for (let i = 0; i < 6; i++) {
      await t.advance(elapsed);
      delays.push(t.hook.result.current.pollDelayMs);
      elapsed = t.hook.result.current.pollDelayMs;
    }
    expect(delays).toEqual([4000, 8000, 16_000, 30_000, 30_000, 2000]);
  });

  it('grows the wait by 1 s after other failures, up to 15 s', async () => {
    const t = setup();
    t.queues.status = [fail(500)];
    t.queues.logs = [fail(502)];
    await act(async () => {
      await t.hook.result.current.start({ researchQuestion: 'Why?' });
    });
    let elapsed = 2000;
    const delays: number[] = [];
    for (let i = 0; i < 15; i++) {
      await t.advance(elapsed);
      delays.push(t.hook.result.current.pollDelayMs);
      elapsed = t.hook.result.current.pollDelayMs;
    }
    expect(delays.slice(0, 4)).toEqual([3000, 4000, 5000, 6000]);
    expect(delays.at(-1)).toBe(15_000);
    // Polling failures are only logged, never shown.
    expect(t.hook.result.current.error).toBeUndefined();
  });

  it('stops polling once the session completes, after one last read of the status and logs', async () => {
    const t = await started();
    t.queues.status = [statusReply({ status: 'completed', phase: 5, finalReport: '# Done' })];
    await t.advance(2000);
    expect(t.hook.result.current.status).toBe('completed');
    const before = t.calls.length;
    await t.advance(20_000);
    // The closing log lines are written just after the status settles.
    expect(t.calls.slice(before).sort()).toEqual(['logs', 'status']);
    expect(t.hook.result.current.reportPreview).toBe('# Done');
  });

  it('shows the report as revised at the last checkpoint when completion arrives over the socket', async () => {
    const t = await started();
    t.queues.status = [
      statusReply({
        status: 'waiting_for_input',
        phase: 4,
        checkpoint: 3,
        finalReport: '# Before feedback',
      }),
    ];
    await t.advance(2000);
    expect(t.hook.result.current.reportPreview).toBe('# Before feedback');
    // The revised report is written, then the session completes: the socket says so first.
    t.queues.status = [statusReply({ status: 'completed', phase: 5, finalReport: '# Revised' })];
    act(() =>
      t.factory.sockets[0]!.serverSend(
        wsSessionUpdateSchema.parse({
          type: 'session-update',
          sessionId: ID,
          teamId: 'literature',
          status: 'completed',
          phase: 5,
          checkpoint: null,
          timestamp: new Date().toISOString(),
          updateType: 'process_completed',
          data: { finalOutputs: null },
        }),
      ),
    );
    expect(t.hook.result.current.status).toBe('completed');
    // Read at once, not a poll interval later.
    await t.advance(10);
    expect(t.hook.result.current.reportPreview).toBe('# Revised');
  });
});

describe('useLiteratureSession fallbacks and errors', () => {
  it('shows the labelled sample data when a call answers 404', async () => {
    const t = setup();
    t.queues.start = [fail(404), startReply()];
    await act(async () => {
      await t.hook.result.current.start({ researchQuestion: 'Why?' });
    });
    const s = t.hook.result.current;
    expect(s.sample).toBe(true);
    expect(s.outputs.papers).toEqual(SAMPLE_PAPERS);
    expect(s.reportPreview).toMatch(/sample/i);
    expect(s.logs[0]).toMatch(/^Sample data/);
    expect(s.sessionId).toBeUndefined();
  });

  it('follows a session named in the address with one status read, or shows the sample', async () => {
    const fake = fakeHttp();
    fake.queues.status = [
      statusReply({
        status: 'waiting_for_input',
        checkpoint: 1,
        checkpointData: { papers: SAMPLE_PAPERS.slice(0, 1) },
        papers: SAMPLE_PAPERS,
      }),
    ];
    const t = setup(fake, ID);
    await t.advance(0);
    expect(t.calls).toEqual(['status']);
    expect(t.hook.result.current).toMatchObject({ sessionId: ID, checkpoint: 1, sample: false });
    // What the checkpoint shows wins over the status reply's outputs.
    expect(t.hook.result.current.outputs.papers).toEqual(SAMPLE_PAPERS.slice(0, 1));

    const missing = fakeHttp();
    missing.queues.status = [fail(404)];
    const u = setup(missing, ID);
    await u.advance(0);
    expect(u.hook.result.current).toMatchObject({ sample: true, sessionId: undefined });
  });

  it('falls back to the sample when a poll answers 404', async () => {
    const t = await started();
    t.queues.status = [fail(404)];
    await t.advance(2000);
    expect(t.hook.result.current.sample).toBe(true);
  });

  it('names a failed start and a failed feedback with the spec texts', async () => {
    const t = setup();
    t.queues.start = [fail(500, { message: 'Queue is down' }), startReply()];
    await act(async () => {
      await t.hook.result.current.start({ researchQuestion: 'Why?' });
    });
    // The researcher reads words, never the team's internal name.
    expect(t.hook.result.current.error).toBe(
      'The literature review could not start: Queue is down',
    );
    expect(t.hook.result.current.error).not.toMatch(/Error starting [A-Z][a-z]+Team/);
    await act(async () => {
      await t.hook.result.current.start({ researchQuestion: 'Why?' });
    });
    t.queues.feedback = [fail(409, { message: 'Not at a checkpoint' }), feedbackReply()];
    await act(async () => {
      await t.hook.result.current.submitFeedback('more');
    });
    expect(t.hook.result.current.error).toBe('Error submitting feedback: Not at a checkpoint');
  });

  it('hides errors about character decoding', async () => {
    const t = await started();
    t.queues.status = [
      statusReply({
        status: 'error',
        error: "Literature Search failed: 'utf-8' codec can't decode byte 0xe9",
      }),
    ];
    await t.advance(2000);
    expect(t.hook.result.current.status).toBe('error');
    expect(t.hook.result.current.error).toBeUndefined();
  });

  it('previews the report from checkpoint data, else from up to 3 log fetches 400 ms apart', async () => {
    const t = await started();
    t.queues.status = [
      statusReply({ status: 'waiting_for_input', phase: 4, checkpoint: 3, checkpointData: {} }),
    ];
    t.queues.logs = [
      logsReply(['nothing']),
      logsReply(['still nothing']),
      logsReply(['FINAL_REPORT: "# From the logs"']),
    ];
    await t.advance(2000);
    expect(t.hook.result.current.checkpoint).toBe(3);
    await t.advance(0);
    expect(t.calls.filter((c) => c === 'logs')).toHaveLength(1);
    await t.advance(400);
    expect(t.calls.filter((c) => c === 'logs')).toHaveLength(2);
    await t.advance(400);
    expect(t.calls.filter((c) => c === 'logs')).toHaveLength(3);
    expect(t.hook.result.current.reportPreview).toBe('# From the logs');

    // With the report in the checkpoint data no log is read for it.
    const u = await started();
    u.queues.status = [
      statusReply({
        status: 'waiting_for_input',
        phase: 4,
        checkpoint: 3,
        checkpointData: { finalReport: '# From the checkpoint' },
      }),
    ];
    await u.advance(2000);
    expect(u.hook.result.current.reportPreview).toBe('# From the checkpoint');
    expect(u.calls).toEqual(['status']);
  });

  it('approves with the text Approved and resets a running session on the server', async () => {
    const t = await started();
    await act(async () => {
      await t.hook.result.current.approve();
    });
    expect(t.sent.filter((c) => c.call === 'feedback')).toEqual([
      {
        call: 'feedback',
        path: '/api/literature-team/feedback',
        body: { feedback: 'Approved', sessionId: ID },
      },
    ]);
    await act(async () => {
      await t.hook.result.current.reset();
    });
    expect(t.sent.filter((c) => c.call === 'reset')).toEqual([
      { call: 'reset', path: `/api/agents/sessions/${ID}/reset`, body: {} },
    ]);
    expect(t.hook.result.current.status).toBe('idle');
    expect(t.hook.result.current.sessionId).toBeUndefined();
  });
});
