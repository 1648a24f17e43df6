import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEATION_POLL_INTERVAL_MS } from '../../../common/teams/ideation';
import type { ApiResult } from '../../api/client';
import { TeamSocket } from '../../api/ws';
import type { SessionHttp } from '../shared';
import { makeSession, makeUpdate } from '../shared/testing/fakeRuntime';
import { fakeSocketFactory, ManualTimers } from '../shared/testing/fakeSocket';
import { useIdeationRun } from './useIdeationRun';

/**
 * The screen's run rules, on the shared session hook: start answers at once, the log is polled
 * every 1.5 s, failed polls are ignored, TERMINATE completes and stops polling, a failed session
 * shows its error, a refused start shows the server's message without the previous run, an
 * unparseable FINAL_QUESTIONS line goes to the console only.
 */

const SESSION = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const BASE = '/api/agents/ideation-team';

const logsReply = (logs: string[], over: Record<string, unknown> = {}) => ({
  success: true,
  sessionId: SESSION,
  mode: 'human',
  status: 'processing',
  phase: 1,
  error: null,
  logs,
  topics: null,
  grounding: null,
  finalQuestions: null,
  projectId: null,
  ...over,
});

const startReply = (sessionId = SESSION, mode: 'human' | 'automatic' = 'human') => {
  const session = makeSession({
    sessionId,
    teamId: 'ideation',
    agentId: `ideation-${mode}`,
    input: mode === 'human' ? { mode, idea: 'wages' } : { mode },
    phaseKey: mode === 'human' ? 'ideate' : 'trends',
    phaseName: 'Ideator',
  });
  return {
    success: true,
    sessionId,
    status: session.status,
    phase: session.phase,
    session,
    questions: [],
    logs: ['Started'],
  };
};

const failure = (status: number, message: string): ApiResult<unknown> => ({
  success: false,
  error: `HTTP error! status: ${status}`,
  message,
  status,
});

/** Answers each call with the next scripted reply; with none left, the server is down. */
class ScriptedHttp implements SessionHttp {
  readonly replies: ApiResult<unknown>[] = [];
  readonly calls: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown }> = [];
  private next(): ApiResult<unknown> {
    return this.replies.shift() ?? failure(503, 'down');
  }
  get = async (path: string) => {
    this.calls.push({ method: 'GET', path });
    return this.next();
  };
  post = async (path: string, body?: unknown) => {
    this.calls.push({ method: 'POST', path, body });
    return this.next();
  };
}

function setup() {
  const http = new ScriptedHttp();
  const factory = fakeSocketFactory();
  const socket = new TeamSocket({
    url: 'ws://example.test/ws',
    getToken: () => 't',
    createSocket: factory.create,
    timers: new ManualTimers(),
    pingIntervalMs: 0,
  });
  const hook = renderHook(() => useIdeationRun({ http, socket }));
  const push = (message: unknown) =>
    act(() => {
      factory.sockets[0]!.serverOpen();
      factory.sockets[0]!.serverSend(message);
    });
  return { http, hook, push };
}

async function started(mode: 'human' | 'automatic' = 'human') {
  const t = setup();
  t.http.replies.push(startReply(SESSION, mode));
  await act(async () => {
    await t.hook.result.current.start(
      mode === 'human' ? { idea: 'wages', mode: 'human' } : { mode: 'automatic' },
    );
  });
  return t;
}

beforeEach(() => {
  vi.useFakeTimers();
  // The shared hook notes failed polls as warnings; the screen shows nothing of them.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const tick = (ms = IDEATION_POLL_INTERVAL_MS) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

describe('useIdeationRun', () => {
  it('polls every 1.5 s, ignores failed polls, and stops at TERMINATE', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { hook, http } = await started();
    expect(http.calls[0]).toEqual({
      method: 'POST',
      path: BASE,
      body: { idea: 'wages', mode: 'human' },
    });
    expect(hook.result.current.state).toBe('generating');
    expect(hook.result.current.sessionId).toBe(SESSION);
    expect(hook.result.current.logs).toEqual(['Started']);
    expect(hook.result.current.panels.map((p) => p.state)).toEqual([
      'active',
      'pending',
      'pending',
      'pending',
    ]);

    // No poll before 1.5 s.
    await tick(IDEATION_POLL_INTERVAL_MS - 100);
    expect(http.calls).toHaveLength(1);

    // A failed poll is ignored: no error, still generating, the next poll comes.
    http.replies.push(failure(500, 'boom'));
    await tick(100);
    expect(http.calls[1]).toEqual({ method: 'GET', path: `${BASE}/logs/${SESSION}` });
    expect(hook.result.current.error).toBeNull();
    expect(hook.result.current.state).toBe('generating');

    http.replies.push(logsReply(['Started', 'Ideator: 1. A?', 'Starting phase 2/4: Refiner']));
    await tick();
    expect(hook.result.current.panels.map((p) => p.state)).toEqual([
      'completed',
      'active',
      'pending',
      'pending',
    ]);

    // TERMINATE completes the run though the status still says processing.
    http.replies.push(
      logsReply([
        'Finalizer: ranked',
        'FINAL_QUESTIONS: ["A? Justification: because", "B?", "C?"]',
        'TERMINATE',
      ]),
    );
    await tick();
    expect(hook.result.current.state).toBe('complete');
    expect(hook.result.current.questions).toEqual([
      { question: 'A?', justification: 'because' },
      { question: 'B?' },
      { question: 'C?' },
    ]);
    expect(hook.result.current.panels.every((p) => p.state === 'completed')).toBe(true);
    // One closing read for the lines written after TERMINATE, then no more polls.
    http.replies.push(
      logsReply(
        [
          'Finalizer: ranked',
          'FINAL_QUESTIONS: ["A? Justification: because", "B?", "C?"]',
          'TERMINATE',
          'Session completed',
        ],
        { status: 'completed', phase: 4 },
      ),
    );
    await tick();
    const made = http.calls.length;
    await tick();
    await tick();
    await tick();
    expect(http.calls).toHaveLength(made);
    expect(hook.result.current.state).toBe('complete');
    expect(hook.result.current.logs.at(-1)).toBe('Session completed');
    expect(errors).not.toHaveBeenCalled();
  });

  it('reports an unparseable final-questions line to the console only, once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { hook, http } = await started();
    const broken = ['Finalizer: ranked', 'FINAL_QUESTIONS: ["A?", "B?"'];
    http.replies.push(logsReply(broken));
    await tick();
    http.replies.push(logsReply(broken));
    await tick();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toBe('Failed to parse final questions');
    expect(hook.result.current.error).toBeNull();
    expect(hook.result.current.questions).toEqual([]);
  });

  it("shows a failed session's error and stops polling", async () => {
    const { hook, http } = await started();
    http.replies.push(
      logsReply(['Refiner failed'], { status: 'error', error: 'Refiner failed: model refused' }),
    );
    await tick();
    expect(hook.result.current.state).toBe('error');
    expect(hook.result.current.error).toBe('Refiner failed: model refused');
    // The closing read, then nothing.
    await tick();
    const made = http.calls.length;
    await tick();
    await tick();
    expect(http.calls).toHaveLength(made);
    expect(hook.result.current.error).toBe('Refiner failed: model refused');
  });

  it('takes a failure from the real-time channel as well as from polling', async () => {
    const { hook, push } = await started();
    push(
      makeUpdate(
        'process_error',
        { error: 'Contextualizer failed: OpenAlex answered 503', phase: 3 },
        { sessionId: SESSION, teamId: 'ideation', status: 'error' },
      ),
    );
    expect(hook.result.current.state).toBe('error');
    expect(hook.result.current.error).toBe('Contextualizer failed: OpenAlex answered 503');
  });

  it("shows the server's message when the start is refused (e.g. no model)", async () => {
    const { hook, http } = setup();
    http.replies.push(failure(422, 'No language model is configured for your account'));
    await act(async () => {
      await hook.result.current.start({ idea: 'wages', mode: 'human' });
    });
    expect(hook.result.current.state).toBe('error');
    expect(hook.result.current.error).toBe('No language model is configured for your account');
    expect(hook.result.current.sessionId).toBeNull();
    await tick();
    expect(http.calls).toHaveLength(1);
  });

  it('shows a new start at once and a refused one without the previous run', async () => {
    const { hook, http } = await started();
    http.replies.push(logsReply(['Finalizer: ranked', 'FINAL_QUESTIONS: ["A?"]', 'TERMINATE']));
    await tick();
    expect(hook.result.current.state).toBe('complete');

    let answer: (reply: ApiResult<unknown>) => void = () => undefined;
    http.post = async (path, body) => {
      http.calls.push({ method: 'POST', path, body });
      return new Promise((resolve) => (answer = resolve));
    };
    let starting: Promise<void> = Promise.resolve();
    act(() => {
      starting = hook.result.current.start({ mode: 'automatic' });
    });
    // Generating at once, in the mode asked for, with nothing of the last run.
    expect(hook.result.current).toMatchObject({
      state: 'generating',
      mode: 'automatic',
      sessionId: null,
      logs: [],
      questions: [],
    });
    await act(async () => {
      answer(failure(429, 'Too many sessions running'));
      await starting;
    });
    expect(hook.result.current).toMatchObject({
      state: 'error',
      error: 'Too many sessions running',
      sessionId: null,
      logs: [],
    });
    expect(hook.result.current.panels.every((p) => p.lines.length === 0)).toBe(true);
  });

  it('follows an existing session: generating until read, then its state', async () => {
    const { hook, http } = setup();
    http.replies.push(
      logsReply(['Ideator: 1. A?', 'Starting phase 2/4: Refiner'], { sessionId: OTHER }),
    );
    act(() => hook.result.current.follow(OTHER));
    expect(hook.result.current.state).toBe('generating');
    expect(hook.result.current.mode).toBeNull();
    await tick(0);
    expect(http.calls[0]).toEqual({ method: 'GET', path: `${BASE}/logs/${OTHER}` });
    expect(hook.result.current.sessionId).toBe(OTHER);
    expect(hook.result.current.mode).toBe('human');
    expect(hook.result.current.details?.sessionId).toBe(OTHER);
    expect(hook.result.current.panels.map((p) => p.state)).toEqual([
      'completed',
      'active',
      'pending',
      'pending',
    ]);
  });

  it('reads the first 5 items as topics in automatic mode', async () => {
    const { hook, http } = await started('automatic');
    expect(hook.result.current.mode).toBe('automatic');
    http.replies.push(
      logsReply(
        [
          `FINAL_QUESTIONS: ${JSON.stringify(['t1', 't2', 't3', 't4', 't5', 'Q1? Justification: j', 'Q2?', 'Q3?'])}`,
          'TERMINATE',
        ],
        { mode: 'automatic' },
      ),
    );
    await tick();
    expect(hook.result.current.topics.map((t) => t.question)).toEqual([
      't1',
      't2',
      't3',
      't4',
      't5',
    ]);
    expect(hook.result.current.questions.map((q) => q.question)).toEqual(['Q1?', 'Q2?', 'Q3?']);
  });
});
