import { useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { api, isFailure, type ApiResult } from '../../api/client';

/**
 * What a session was started with, for the screen that reopens it (`?sessionId=`, a reload, a
 * link from the project's record): the start form shows the session's own inputs, not an empty
 * form.
 */

/** The runtime's `input` and `configuration` of a session (common/agents.ts). */
export interface SessionInputs {
  input: Record<string, unknown>;
  configuration: Record<string, unknown>;
}

const sessionInputsSchema = z.object({
  input: z.record(z.string(), z.unknown()),
  configuration: z.record(z.string(), z.unknown()),
});

/** The inputs a session record carries (the runtime's session, or a team reply with its fields). */
export function sessionInputsOf(session: unknown): SessionInputs | undefined {
  const parsed = sessionInputsSchema.safeParse(session);
  return parsed.success ? parsed.data : undefined;
}

/** The GET the hook makes when the screen's record lacks the inputs (tests pass a fake). */
export interface SessionInputHttp {
  get(path: string, signal?: AbortSignal): Promise<ApiResult<unknown>>;
}

const defaultHttp: SessionInputHttp = { get: (path, signal) => api.get<unknown>(path, signal) };

export interface UseSessionInputOptions {
  /** The session the screen shows (undefined: none). */
  sessionId: string | undefined;
  /**
   * The record the screen's session hook holds. When it carries `input` and `configuration` they
   * are read from it; otherwise (Ideation's logs reply) from GET /api/agents/sessions/:id, once
   * per session.
   */
  session?: unknown;
  /** The form still holds what it opened with: only then is it filled. */
  pristine: boolean;
  /** Puts the session's inputs into the form's fields. */
  fill(inputs: SessionInputs): void;
  http?: SessionInputHttp;
}

/**
 * Fills a team screen's start form from the session it shows, once per session and only while
 * the form is pristine (what the researcher typed is never overwritten; a session the screen
 * just started holds what the form already shows). Answers the inputs once known.
 */
export function useSessionInput(options: UseSessionInputOptions): SessionInputs | undefined {
  const { sessionId, session } = options;
  const http = options.http ?? defaultHttp;
  const fromRecord = useMemo(() => sessionInputsOf(session), [session]);
  const [fetched, setFetched] = useState<{ sessionId: string; inputs: SessionInputs }>();
  const inputs = fromRecord ?? (fetched?.sessionId === sessionId ? fetched?.inputs : undefined);

  const hasRecord = fromRecord !== undefined;
  const fetchedId = fetched?.sessionId;
  useEffect(() => {
    if (!sessionId || hasRecord || fetchedId === sessionId) return;
    const controller = new AbortController();
    void http
      .get(`/api/agents/sessions/${encodeURIComponent(sessionId)}`, controller.signal)
      .then((reply) => {
        if (controller.signal.aborted || isFailure(reply)) return;
        const record =
          typeof reply === 'object' && reply !== null && 'session' in reply
            ? reply.session
            : undefined;
        const read = sessionInputsOf(record);
        if (read) setFetched({ sessionId, inputs: read });
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [sessionId, hasRecord, fetchedId, http]);

  // The newest form state and fill, without re-running the effect on every keystroke.
  const latest = useRef({ pristine: options.pristine, fill: options.fill });
  useEffect(() => {
    latest.current = { pristine: options.pristine, fill: options.fill };
  });
  const filledFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!sessionId || !inputs || filledFor.current === sessionId) return;
    filledFor.current = sessionId;
    if (latest.current.pristine) latest.current.fill(inputs);
  }, [sessionId, inputs]);

  return inputs;
}
