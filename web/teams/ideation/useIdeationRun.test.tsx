import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEATION_POLL_INTERVAL_MS } from '../../../common/teams/ideation';
import { useIdeationRun } from './useIdeationRun';

/**
 * The screen's run rules (agent-teams.md §4, §8): start answers at once, the log is polled every
 * 1.5 s, failed polls are ignored, TERMINATE completes and stops polling, a failed session shows
 * its error, an unparseable FINAL_QUESTIONS line goes to the console only.
 */

const SESSION = '11111111-1111-4111-8111-111111111111';

type Reply = { status: number; body: unknown };

const logsReply = (logs: string[], over: Record<string, unknown> = {}): Reply => ({
  status: 200,
  body: {
    success: true,
    sessionId: SESSION,
    mode: 'human',
    status: 'processing',
    error: null,
    logs,
    topics: null,
    grounding: null,
    finalQuestions: null,
    projectId: null,
    ...over,
  },
});

let replies: Reply[];
let calls: Array<{ method: string; url: string; body: unknown }>;

beforeEach(() => {
  vi.useFakeTimers();
  replies = [];
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({
        method: init.method ?? 'GET',
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      const next = replies.shift() ?? { status: 503, body: { success: false, error: 'down' } };
      return new Response(JSON.stringify(next.body), {
        status: next.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const tick = () =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(IDEATION_POLL_INTERVAL_MS);
  });

async function started(mode: 'human' | 'automatic' = 'human') {
  const hook = renderHook(() => useIdeationRun());
  replies.push({
    status: 201,
    body: { success: true, sessionId: SESSION, questions: [], logs: ['Started'] },
  });
  await act(async () => {
    await hook.result.current.start(
      mode === 'human' ? { idea: 'wages', mode: 'human' } : { mode: 'automatic' },
    );
  });
  return hook;
}

describe('useIdeationRun', () => {
  it('polls every 1.5 s, ignores failed polls, and stops at TERMINATE', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const hook = await started();
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/agents/ideation-team',
      body: { idea: 'wages', mode: 'human' },
    });
    expect(hook.result.current.state).toBe('generating');
    expect(hook.result.current.panels.map((p) => p.state)).toEqual([
      'active',
      'pending',
      'pending',
      'pending',
    ]);

    // No poll before 1.5 s.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(IDEATION_POLL_INTERVAL_MS - 100);
    });
    expect(calls).toHaveLength(1);

    // A failed poll is ignored: no error, still generating, the next poll comes.
    replies.push({ status: 500, body: { success: false, error: 'boom' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(calls[1]).toMatchObject({
      method: 'GET',
      url: `/api/agents/ideation-team/logs/${SESSION}`,
    });
    expect(hook.result.current.error).toBeNull();
    expect(hook.result.current.state).toBe('generating');

    replies.push(logsReply(['Started', 'Ideator: 1. A?', 'Starting phase 2/4: Refiner']));
    await tick();
    expect(hook.result.current.panels.map((p) => p.state)).toEqual([
      'completed',
      'active',
      'pending',
      'pending',
    ]);

    replies.push(
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
    const made = calls.length;
    await tick();
    await tick();
    expect(calls).toHaveLength(made);
    expect(errors).not.toHaveBeenCalled();
  });

  it('reports an unparseable final-questions line to the console only, once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const hook = await started();
    const broken = ['Finalizer: ranked', 'FINAL_QUESTIONS: ["A?", "B?"'];
    replies.push(logsReply(broken));
    await tick();
    replies.push(logsReply(broken));
    await tick();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toBe('Failed to parse final questions');
    expect(hook.result.current.error).toBeNull();
    expect(hook.result.current.questions).toEqual([]);
  });

  it("shows a failed session's error and stops polling", async () => {
    const hook = await started();
    replies.push(
      logsReply(['Refiner failed'], { status: 'error', error: 'Refiner failed: model refused' }),
    );
    await tick();
    expect(hook.result.current.state).toBe('error');
    expect(hook.result.current.error).toBe('Refiner failed: model refused');
    const made = calls.length;
    await tick();
    expect(calls).toHaveLength(made);
  });

  it("shows the server's message when the start is refused (e.g. no model)", async () => {
    const hook = renderHook(() => useIdeationRun());
    replies.push({
      status: 422,
      body: { success: false, error: 'No language model is configured for your account' },
    });
    await act(async () => {
      await hook.result.current.start({ idea: 'wages', mode: 'human' });
    });
    expect(hook.result.current.state).toBe('error');
    expect(hook.result.current.error).toBe('No language model is configured for your account');
    await tick();
    expect(calls).toHaveLength(1);
  });

  it('reads the first 5 items as topics in automatic mode', async () => {
    const hook = await started('automatic');
    replies.push(
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
