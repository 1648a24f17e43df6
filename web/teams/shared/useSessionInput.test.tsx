import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../api/client';
import { makeSession, OTHER_SESSION_ID, SESSION_ID } from './testing/fakeRuntime';
import {
  sessionInputsOf,
  useSessionInput,
  type SessionInputs,
  type UseSessionInputOptions,
} from './useSessionInput';

const record = makeSession({
  input: { researchQuestion: 'Do minimum wages cost jobs?' },
  configuration: { topN: 40 },
});

function httpAnswering(reply: ApiResult<unknown>) {
  return { get: vi.fn(async (_path: string, _signal?: AbortSignal) => reply) };
}

function setup(initial: Partial<UseSessionInputOptions>) {
  const fill = vi.fn<(inputs: SessionInputs) => void>();
  const hook = renderHook(
    (props: Partial<UseSessionInputOptions>) =>
      useSessionInput({ sessionId: undefined, pristine: true, fill, ...props }),
    { initialProps: initial },
  );
  return { fill, hook };
}

describe('sessionInputsOf', () => {
  it("reads a session record's input and configuration, and nothing from another shape", () => {
    expect(sessionInputsOf(record)).toEqual({
      input: { researchQuestion: 'Do minimum wages cost jobs?' },
      configuration: { topN: 40 },
    });
    expect(sessionInputsOf({ logs: [], status: 'completed' })).toBeUndefined();
    expect(sessionInputsOf(undefined)).toBeUndefined();
  });
});

describe('useSessionInput', () => {
  it('fills a pristine form once from the record the screen holds, without a call', async () => {
    const http = httpAnswering({ session: record });
    const { fill, hook } = setup({ sessionId: SESSION_ID, session: record, http });
    await waitFor(() => expect(fill).toHaveBeenCalledTimes(1));
    expect(fill.mock.calls[0]![0].input).toEqual({
      researchQuestion: 'Do minimum wages cost jobs?',
    });
    // A later poll brings a new record of the same session: no second fill.
    hook.rerender({ sessionId: SESSION_ID, session: { ...record }, http, pristine: true });
    expect(fill).toHaveBeenCalledTimes(1);
    expect(http.get).not.toHaveBeenCalled();
  });

  it('never overwrites what the researcher typed', async () => {
    const { fill, hook } = setup({ sessionId: SESSION_ID, session: record, pristine: false });
    await act(async () => {});
    expect(fill).not.toHaveBeenCalled();
    // Once left alone for this session, it stays so even when the form is cleared later.
    hook.rerender({ sessionId: SESSION_ID, session: record, pristine: true });
    expect(fill).not.toHaveBeenCalled();
    expect(hook.result.current).toEqual(sessionInputsOf(record));
  });

  it('reads GET /api/agents/sessions/:id when the record has no inputs (a team logs reply)', async () => {
    const http = httpAnswering({ success: true, session: record, logs: [] });
    const { fill } = setup({ sessionId: SESSION_ID, session: { status: 'completed' }, http });
    await waitFor(() => expect(fill).toHaveBeenCalledTimes(1));
    expect(http.get).toHaveBeenCalledWith(`/api/agents/sessions/${SESSION_ID}`, expect.anything());
    expect(fill.mock.calls[0]![0].configuration).toEqual({ topN: 40 });
  });

  it('fills again for another session, and not at all when the call fails', async () => {
    const failing = httpAnswering({
      success: false,
      error: 'HTTP error! status: 404',
      status: 404,
    });
    const { fill, hook } = setup({ sessionId: SESSION_ID, session: record });
    await waitFor(() => expect(fill).toHaveBeenCalledTimes(1));
    hook.rerender({ sessionId: OTHER_SESSION_ID, session: undefined, http: failing });
    await waitFor(() => expect(failing.get).toHaveBeenCalledTimes(1));
    expect(fill).toHaveBeenCalledTimes(1);
    const other = makeSession({ sessionId: OTHER_SESSION_ID, input: { researchQuestion: 'Q2' } });
    hook.rerender({ sessionId: OTHER_SESSION_ID, session: other, http: failing });
    await waitFor(() => expect(fill).toHaveBeenCalledTimes(2));
    expect(fill.mock.calls[1]![0].input).toEqual({ researchQuestion: 'Q2' });
  });

  it('does nothing without a session', async () => {
    const http = httpAnswering({ session: record });
    const { fill } = setup({ http });
    await act(async () => {});
    expect(http.get).not.toHaveBeenCalled();
    expect(fill).not.toHaveBeenCalled();
  });
});
