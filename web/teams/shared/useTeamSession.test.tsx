import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamSocket } from '../../api/ws';
import { fakeSocketFactory, ManualTimers } from './testing/fakeSocket';
import {
  FakeRuntimeHttp,
  logData,
  makeSession,
  makeUpdate,
  OTHER_SESSION_ID,
  SESSION_ID,
} from './testing/fakeRuntime';
import { useTeamSession, type UseTeamSessionOptions } from './useTeamSession';
import type { GenericStartInput } from './endpoints';

function setup(
  overrides: Partial<UseTeamSessionOptions<GenericStartInput>> = {},
  http = new FakeRuntimeHttp(),
) {
  const factory = fakeSocketFactory();
  const socket = new TeamSocket({
    url: 'ws://example.test/ws',
    getToken: () => 't',
    createSocket: factory.create,
    timers: new ManualTimers(),
    pingIntervalMs: 0,
  });
  const hook = renderHook(() =>
    useTeamSession({
      teamId: 'literature',
      teamLabel: 'LiteratureTeam',
      http,
      socket,
      ...overrides,
    }),
  );
  /** Opens the (first) socket once the hook subscribed. */
  const openSocket = () => {
    act(() => factory.sockets[0]!.serverOpen());
    return factory.sockets[0]!;
  };
  const push = (message: unknown) => act(() => factory.sockets[0]!.serverSend(message));
  const advance = (ms: number) =>
    act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  return { http, socket, sockets: factory.sockets, hook, openSocket, push, advance };
}

async function started(overrides: Partial<UseTeamSessionOptions<GenericStartInput>> = {}) {
  const t = setup(overrides);
  await act(async () => {
    await t.hook.result.current.start({ input: { researchQuestion: 'Why?' } });
  });
  t.openSocket();
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

describe('useTeamSession', () => {
  it('starts through the generic endpoint and subscribes to its own session', async () => {
    const { hook, http, sockets } = await started();
    expect(http.calls[0]).toEqual({
      method: 'POST',
      path: '/api/agents/sessions',
      body: { input: { researchQuestion: 'Why?' }, teamId: 'literature' },
    });
    expect(hook.result.current.sessionId).toBe(SESSION_ID);
    expect(hook.result.current.status).toBe('processing');
    expect(hook.result.current.isProcessing).toBe(true);
    expect(sockets[0]!.sentMessages).toEqual([
      {
        type: 'subscribe',
        subscriptionType: 'literature-team',
        filters: { sessionId: SESSION_ID },
      },
      // The session is on screen: its checkpoints are not notified.
      { type: 'watch', sessionId: SESSION_ID },
    ]);
  });

  it("ignores updates whose sessionId is not the current session's", async () => {
    const { hook, push } = await started();
    push(makeUpdate('log_update', logData(1, 'not mine'), { sessionId: OTHER_SESSION_ID }));
    push(
      makeUpdate(
        'checkpoint_reached',
        { phase: 1, checkpoint: 1, checkpointData: { x: 1 } },
        { sessionId: OTHER_SESSION_ID, status: 'waiting_for_input', checkpoint: 1 },
      ),
    );
    push(
      makeUpdate(
        'process_error',
        { error: 'boom', phase: 1 },
        { sessionId: OTHER_SESSION_ID, status: 'error' },
      ),
    );
    expect(hook.result.current.logs).toEqual([]);
    expect(hook.result.current.status).toBe('processing');
    expect(hook.result.current.checkpoint).toBeNull();
    expect(hook.result.current.error).toBeUndefined();
    push(makeUpdate('log_update', logData(1, 'mine')));
    expect(hook.result.current.logs).toEqual(['mine']);
  });

  it('merges socket log lines with polled ones every 2 s, in order and without duplicates', async () => {
    const { hook, http, push, advance } = await started();
    http.logs = ['one', 'two', 'three'];
    // The socket delivered lines 1 and 3; line 2 was missed (e.g. before the subscription).
    push(makeUpdate('log_update', logData(1, 'one')));
    push(makeUpdate('log_update', logData(3, 'three')));
    expect(hook.result.current.logs).toEqual(['one', 'three']);

    await advance(1999);
    expect(http.count('GET', '/api/agents/sessions/')).toBe(0);
    await advance(1);
    // One status and one logs call per tick; logs asked after the last line known in order.
    expect(http.calls.filter((c) => c.method === 'GET').map((c) => c.path)).toEqual([
      `/api/agents/sessions/${SESSION_ID}`,
      `/api/agents/sessions/${SESSION_ID}/logs?after=1`,
    ]);
    expect(hook.result.current.logs).toEqual(['one', 'two', 'three']);

    http.logs.push('four');
    push(makeUpdate('log_update', logData(4, 'four')));
    await advance(2000);
    expect(http.calls.at(-1)!.path).toBe(`/api/agents/sessions/${SESSION_ID}/logs?after=4`);
    expect(hook.result.current.logs).toEqual(['one', 'two', 'three', 'four']);
  });

  it('takes state from polling when the socket is silent, and stops polling once completed after one last read for the closing log lines', async () => {
    const { hook, http, advance } = await started();
    http.session = makeSession({
      status: 'waiting_for_input',
      checkpoint: 1,
      checkpointData: { papers: 3 },
      updatedAt: '2025-01-01T00:00:05.000Z',
    });
    await advance(2000);
    expect(hook.result.current.status).toBe('waiting_for_input');
    expect(hook.result.current.checkpoint).toBe(1);
    expect(hook.result.current.checkpointData).toEqual({ papers: 3 });
    expect(hook.result.current.isProcessing).toBe(false);

    http.session = makeSession({
      status: 'completed',
      phase: 4,
      finalOutputs: { report: 'done' },
      results: [{ phase: 4, key: 'report', name: 'Report', result: 'r', completedAt: 'x' }],
      updatedAt: '2025-01-01T00:00:09.000Z',
    });
    await advance(2000);
    expect(hook.result.current.status).toBe('completed');
    expect(hook.result.current.finalOutputs).toEqual({ report: 'done' });
    expect(hook.result.current.results).toEqual({ 4: 'r' });
    // The server writes its closing line just after the status change.
    http.logs = ['Session completed: all 4 phases done'];
    const polls = http.count('GET', '/api/agents/sessions/');
    await advance(2000);
    expect(http.count('GET', '/api/agents/sessions/')).toBe(polls + 2);
    expect(hook.result.current.logs).toEqual(['Session completed: all 4 phases done']);
    await advance(10_000);
    expect(http.count('GET', '/api/agents/sessions/')).toBe(polls + 2);
  });

  it('follows the checkpoint flow: wait, approve sends "Approved", results by phase, completion', async () => {
    const { hook, http, push, advance } = await started();
    push(
      makeUpdate('phase_completed', {
        phase: 1,
        key: 'search',
        name: 'Search',
        result: { papers: ['a'] },
      }),
    );
    push(
      makeUpdate(
        'checkpoint_reached',
        { phase: 1, checkpoint: 1, checkpointData: { papers: ['a'] } },
        { status: 'waiting_for_input', checkpoint: 1, timestamp: '2025-01-01T00:00:02.000Z' },
      ),
    );
    expect(hook.result.current.status).toBe('waiting_for_input');
    expect(hook.result.current.checkpoint).toBe(1);
    expect(hook.result.current.checkpointData).toEqual({ papers: ['a'] });
    expect(hook.result.current.isProcessing).toBe(false);
    expect(hook.result.current.results).toEqual({ 1: { papers: ['a'] } });

    // Blank feedback is refused without a call.
    await act(async () => {
      expect(await hook.result.current.submitFeedback('   ')).toBe(false);
    });
    expect(http.count('POST', `/api/agents/sessions/${SESSION_ID}/feedback`)).toBe(0);

    await act(async () => {
      expect(await hook.result.current.approve()).toBe(true);
    });
    expect(http.calls.at(-1)).toEqual({
      method: 'POST',
      path: `/api/agents/sessions/${SESSION_ID}/feedback`,
      body: { feedback: 'Approved' },
    });
    expect(hook.result.current.status).toBe('processing');
    expect(hook.result.current.checkpoint).toBeNull();

    push(
      makeUpdate(
        'feedback_submitted',
        { phase: 1, checkpoint: 1, feedback: 'Approved', approved: true },
        { timestamp: '2025-01-01T00:00:03.000Z', phase: 2 },
      ),
    );
    push(
      makeUpdate(
        'phase_completed',
        { phase: 2, key: 'gaps', name: 'Gaps', result: ['gap'] },
        {
          phase: 2,
          timestamp: '2025-01-01T00:00:04.000Z',
        },
      ),
    );
    push(
      makeUpdate(
        'process_completed',
        { finalOutputs: { report: '# Report' } },
        {
          status: 'completed',
          phase: 4,
          timestamp: '2025-01-01T00:00:05.000Z',
        },
      ),
    );
    expect(hook.result.current.status).toBe('completed');
    expect(hook.result.current.phase).toBe(4);
    expect(hook.result.current.results).toEqual({ 1: { papers: ['a'] }, 2: ['gap'] });
    expect(hook.result.current.finalOutputs).toEqual({ report: '# Report' });
    // Completed over the socket: the status is read at once (the update carries no outputs),
    // then polling stops after one last read (status and logs).
    const polls = http.count('GET', '/api/agents/sessions/');
    await advance(6000);
    expect(http.count('GET', '/api/agents/sessions/')).toBe(polls + 3);
    await advance(6000);
    expect(http.count('GET', '/api/agents/sessions/')).toBe(polls + 3);
  });

  it('sends other feedback text as it is, and a failed feedback call keeps the checkpoint', async () => {
    const { hook, http, push } = await started();
    push(
      makeUpdate(
        'checkpoint_reached',
        { phase: 1, checkpoint: 1, checkpointData: null },
        {
          status: 'waiting_for_input',
          checkpoint: 1,
        },
      ),
    );
    http.fail(`/api/agents/sessions/${SESSION_ID}/feedback`, 409, 'Session is not waiting');
    await act(async () => {
      expect(await hook.result.current.submitFeedback('  Add more papers  ')).toBe(false);
    });
    expect(hook.result.current.error).toBe('Error submitting feedback: Session is not waiting');
    expect(hook.result.current.status).toBe('waiting_for_input');
    await act(async () => {
      await hook.result.current.submitFeedback('Add more papers');
    });
    expect(http.calls.at(-1)!.body).toEqual({ feedback: 'Add more papers' });
    expect(hook.result.current.error).toBeUndefined();
  });

  it('moves to error on process_error and on error updates', async () => {
    const { hook, push } = await started();
    push(
      makeUpdate('process_error', { error: 'The model timed out', phase: 1 }, { status: 'error' }),
    );
    expect(hook.result.current.status).toBe('error');
    expect(hook.result.current.error).toBe('The model timed out');

    const other = await started();
    other.push(makeUpdate('error', { error: 'Cancelled', phase: 2 }, { status: 'error' }));
    expect(other.hook.result.current.status).toBe('error');
    expect(other.hook.result.current.error).toBe('Cancelled');
  });

  it('does not let a snapshot read before a newer update undo it', async () => {
    const { hook, http, push, advance } = await started();
    push(
      makeUpdate(
        'checkpoint_reached',
        { phase: 1, checkpoint: 1, checkpointData: 'cp' },
        {
          status: 'waiting_for_input',
          checkpoint: 1,
          timestamp: '2025-01-01T00:00:10.000Z',
        },
      ),
    );
    // The polled record is older than the update (read before the checkpoint was written).
    http.session = makeSession({ status: 'processing', updatedAt: '2025-01-01T00:00:09.000Z' });
    http.logs = ['line'];
    await advance(2000);
    expect(hook.result.current.status).toBe('waiting_for_input');
    expect(hook.result.current.logs).toEqual(['line']);
  });

  it('takes a pause from the record even though the pause log line came later', async () => {
    const { hook, http, push } = await started();
    // The runtime writes the pause, then logs it: the line's time is after the record's.
    push(
      makeUpdate('log_update', logData(2, 'Paused by the user during phase 1'), {
        status: 'idle',
        timestamp: '2025-01-01T00:00:10.500Z',
      }),
    );
    expect(hook.result.current.status).toBe('idle');
    expect(hook.result.current.paused).toBe(false);
    http.session = makeSession({
      status: 'idle',
      paused: true,
      updatedAt: '2025-01-01T00:00:10.000Z',
    });
    await act(async () => {
      await hook.result.current.refresh();
    });
    expect(hook.result.current.paused).toBe(true);
    expect(hook.result.current.status).toBe('idle');
  });

  it('reports a failed start with the team label and the server message', async () => {
    const t = setup();
    t.http.fail('/api/agents/sessions', 429, 'Too many sessions running');
    await act(async () => {
      expect(await t.hook.result.current.start({})).toBe(false);
    });
    expect(t.hook.result.current.status).toBe('error');
    expect(t.hook.result.current.error).toBe(
      'Error starting LiteratureTeam: Too many sessions running',
    );
    expect(t.sockets).toHaveLength(0);
  });

  it('words a refused start with startErrorText when a team gives one', async () => {
    const t = setup({ startErrorText: (message) => message });
    t.http.fail('/api/agents/sessions', 422, 'No language model is configured');
    await act(async () => {
      expect(await t.hook.result.current.start({})).toBe(false);
    });
    expect(t.hook.result.current.error).toBe('No language model is configured');
  });

  it('stops polling once isDone holds for the log, though the status still says processing', async () => {
    const { hook, http, advance } = await started({
      isDone: (logs) => logs.includes('DONE'),
    });
    http.logs = ['working'];
    await advance(2000);
    const polls = http.count('GET', '/api/agents/sessions/');
    http.logs = ['working', 'DONE'];
    await advance(2000);
    expect(hook.result.current.logs).toEqual(['working', 'DONE']);
    expect(hook.result.current.status).toBe('processing');
    // This read, then the one closing read every settled session gets, then none.
    await advance(10_000);
    expect(http.count('GET', '/api/agents/sessions/')).toBe(polls + 4);
  });

  it('reset stops a running session on the server, restores defaults and forgets its updates', async () => {
    const { hook, http, push, sockets, advance } = await started();
    push(makeUpdate('log_update', logData(1, 'one')));
    await act(async () => {
      await hook.result.current.reset();
    });
    expect(http.calls.at(-1)).toEqual({
      method: 'POST',
      path: `/api/agents/sessions/${SESSION_ID}/reset`,
      body: {},
    });
    expect(hook.result.current).toMatchObject({
      sessionId: undefined,
      status: 'idle',
      phase: 0,
      checkpoint: null,
      logs: [],
      results: {},
      error: undefined,
    });
    expect(sockets[0]!.sentMessages.slice(-2)).toEqual([
      {
        type: 'unsubscribe',
        subscriptionType: 'literature-team',
        filters: { sessionId: SESSION_ID },
      },
      { type: 'unwatch', sessionId: SESSION_ID },
    ]);
    push(makeUpdate('log_update', logData(2, 'late')));
    expect(hook.result.current.logs).toEqual([]);
    const calls = http.calls.length;
    await advance(6000);
    expect(http.calls).toHaveLength(calls);
  });

  it("uses a team's own routes when given", async () => {
    const endpoints = {
      subscriptionType: 'data-team',
      start: (input: GenericStartInput) => ({
        path: '/api/agents/data-team/analyze',
        body: input.input,
      }),
      status: (id: string) => `/api/agents/data-team/status/${id}`,
      logs: undefined,
      feedback: (id: string, feedback: string) => ({
        path: '/api/agents/data-team/feedback',
        body: { feedback, sessionId: id },
      }),
    };
    const { hook, http, sockets, advance } = await started({ endpoints });
    expect(http.calls[0]!.path).toBe('/api/agents/data-team/analyze');
    expect(sockets[0]!.sentMessages[0]).toMatchObject({ subscriptionType: 'data-team' });
    await advance(2000);
    expect(http.calls.filter((c) => c.method === 'GET').map((c) => c.path)).toEqual([
      `/api/agents/data-team/status/${SESSION_ID}`,
    ]);
    expect(hook.result.current.status).toBe('processing');
  });

  it('attaches to an existing session and reads it at once', async () => {
    const http = new FakeRuntimeHttp();
    http.session = makeSession({ status: 'waiting_for_input', checkpoint: 2 });
    http.logs = ['a', 'b'];
    const t = setup({ initialSessionId: SESSION_ID }, http);
    // Not read yet: not claimed to be processing, and marked as unsynced.
    expect(t.hook.result.current).toMatchObject({
      sessionId: SESSION_ID,
      status: 'idle',
      synced: false,
    });
    await t.advance(0);
    expect(t.hook.result.current.synced).toBe(true);
    expect(t.hook.result.current.status).toBe('waiting_for_input');
    expect(t.hook.result.current.checkpoint).toBe(2);
    expect(t.hook.result.current.logs).toEqual(['a', 'b']);
  });
});

describe('useTeamSession options for a team with its own polling rules', () => {
  const statusPath = `/api/agents/sessions/${SESSION_ID}`;

  it("pollCalls 'alternate' makes one call per poll, the status and the logs call in turn", async () => {
    const { http, advance } = await started({ pollCalls: 'alternate' });
    const gets = () => http.calls.filter((c) => c.method === 'GET').map((c) => c.path);
    await advance(2000);
    expect(gets()).toEqual([statusPath]);
    await advance(2000);
    expect(gets()).toEqual([statusPath, `${statusPath}/logs?after=0`]);
    await advance(2000);
    expect(gets()).toHaveLength(3);
    expect(gets()[2]).toBe(statusPath);
  });

  it('nextPollDelay sets each wait from the failure and the last real-time update', async () => {
    const nextPollDelay = vi.fn((previous: number, failure: { status?: number } | undefined) =>
      failure ? previous + 500 : 3000,
    );
    const { hook, http, advance, push } = await started({ nextPollDelay });
    http.fail(statusPath, 503, 'Busy');
    await advance(2000);
    expect(nextPollDelay).toHaveBeenLastCalledWith(
      2000,
      expect.objectContaining({ status: 503 }),
      undefined,
    );
    expect(hook.result.current.pollDelayMs).toBe(2500);
    const polls = http.count('GET', statusPath);
    await advance(2499);
    expect(http.count('GET', statusPath)).toBe(polls);
    push(makeUpdate('log_update', logData(1, 'live')));
    await advance(1);
    expect(nextPollDelay).toHaveBeenLastCalledWith(2500, undefined, expect.any(Number));
    expect(hook.result.current.pollDelayMs).toBe(3000);
  });

  it('onNotFound: a 404 forgets the session without an error, from a poll or a call', async () => {
    const onNotFound = vi.fn();
    const t = await started({ onNotFound });
    t.http.fail(statusPath, 404, 'Not found');
    await t.advance(2000);
    expect(onNotFound).toHaveBeenCalledTimes(1);
    expect(t.hook.result.current).toMatchObject({
      sessionId: undefined,
      status: 'idle',
      error: undefined,
    });
    const calls = t.http.calls.length;
    await t.advance(6000);
    expect(t.http.calls).toHaveLength(calls);

    t.http.fail('/api/agents/sessions', 404, 'Not found');
    let started404 = false;
    await act(async () => {
      started404 = await t.hook.result.current.start({ input: {} });
    });
    expect(started404).toBe(true);
    expect(onNotFound).toHaveBeenCalledTimes(2);
    expect(t.hook.result.current.error).toBeUndefined();
  });

  it('without onNotFound a 404 is a failure like any other', async () => {
    const t = setup();
    t.http.fail('/api/agents/sessions', 404, 'Not found');
    await act(async () => {
      await t.hook.result.current.start({ input: {} });
    });
    expect(t.hook.result.current.error).toBe('Error starting LiteratureTeam: Not found');
  });
});
