import {
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { APPROVAL_FEEDBACK, type SessionStatus } from '../../../common/agents';
import { api, failureText, isFailure, type ApiFailure, type ApiResult } from '../../api/client';
import { getTeamSocket, type ConnectionState, type TeamSocket } from '../../api/ws';
import {
  genericSessionEndpoints,
  type GenericStartInput,
  type TeamSessionEndpoints,
} from './endpoints';
import {
  contiguousLogCount,
  initialSessionState,
  logLines,
  SETTLED_STATUSES,
  sessionReducer,
  type SessionSnapshot,
} from './sessionState';
import { isSessionLimitFailure, listOpenSessions, sessionFacts, withProject } from './openSessions';
import { isOpenStatus, readOnlyReason, useTeamScope, type OpenSession } from './teamScope';
import { useReadAfterSettling } from './useReadAfterSettling';
import { useSubmitting } from './useSubmitting';

/** Teams other than literature poll every 2 s. */
export const TEAM_POLL_INTERVAL_MS = 2000;

/** The two HTTP verbs the hook uses (tests pass a fake; the app uses web/api/client.ts). */
export interface SessionHttp {
  get(path: string, signal?: AbortSignal): Promise<ApiResult<unknown>>;
  post(path: string, body?: unknown): Promise<ApiResult<unknown>>;
}

const defaultHttp: SessionHttp = {
  get: (path, signal) => api.get<unknown>(path, signal),
  post: (path, body) => api.post<unknown>(path, body),
};

export interface UseTeamSessionOptions<TStart> {
  /** The runtime's team id ('literature', 'data', ...); names the generic endpoints. */
  teamId: string;
  /** The team's own routes, merged over the generic ones. Keep the object stable. */
  endpoints?: Partial<TeamSessionEndpoints<TStart>>;
  /** Used in the start failure 'Error starting {teamLabel}: ...', e.g. 'LiteratureTeam'. */
  teamLabel?: string;
  /** The error text of a refused start, from the server's message (default: the line above). */
  startErrorText?: (message: string) => string;
  /**
   * For a team whose log says the run is over before its status does (Ideation's TERMINATE
   * line): polling stops once this holds for the log, as it does at a settled status.
   */
  isDone?: (logs: readonly string[]) => boolean;
  pollIntervalMs?: number;
  /**
   * The wait before the next poll, from the wait before this one, the poll's failure (undefined
   * when it succeeded) and when the last real-time update of the session arrived (Date.now()).
   * Default: `pollIntervalMs` every time.
   */
  nextPollDelay?: (
    previousMs: number,
    failure: ApiFailure | undefined,
    lastUpdateAt: number | undefined,
  ) => number;
  /**
   * 'alternate': each poll makes one call, the status and the logs call in turn (a read outside
   * the rhythm makes one too: the status call when attaching, the logs call after settling).
   * Default 'together': both calls at every poll.
   */
  pollCalls?: 'together' | 'alternate';
  /**
   * Called when a team call answers 404 (the server does not know the team's calls or the
   * session): the hook forgets the session, without an error, and the screen shows what it
   * shows instead. Without it a 404 is a failure like any other.
   */
  onNotFound?: () => void;
  /** Defaults to the app's shared connection. */
  socket?: TeamSocket;
  http?: SessionHttp;
  /**
   * Follow an existing session from the start. On a team route the address's `?sessionId=` (or
   * `?session=`) is followed without it.
   */
  initialSessionId?: string;
}

/**
 * How a start the screen asked for ended: the session started, the server refused it (the error
 * says why), or the user chose to resume an open session or not to start after all.
 */
export type StartOutcome = 'started' | 'refused' | 'declined';

export interface TeamSession<TStart> {
  sessionId: string | undefined;
  status: SessionStatus;
  /** 0 before the first phase, then the 1-based phase running or last run. */
  phase: number;
  /** The checkpoint the session waits at (1-based), or null. */
  checkpoint: number | null;
  checkpointData: unknown;
  logs: string[];
  /** Finished phases' results by phase number. */
  results: Record<number, unknown>;
  finalOutputs: unknown;
  /** The text to show: a process error, or a failed start or feedback call. */
  error: string | undefined;
  /** Paused by agent-control (status idle, resumable). */
  paused: boolean;
  /** The last session record the server sent, for team-specific fields. */
  session: unknown;
  /** False while a followed session has not been read yet (show a skeleton, not 'Idle'). */
  synced: boolean;
  /** Spinner: the team is working (stops at a checkpoint, on completion and on error). */
  isProcessing: boolean;
  /** A start, feedback or reset call is in flight. */
  isSubmitting: boolean;
  /** The real-time channel's state (polling carries on without it). */
  connection: ConnectionState;
  /** The wait before the next poll. */
  pollDelayMs: number;
  /** Starts a session (true when it started); see `requestStart`. */
  start(input: TStart): Promise<boolean>;
  /**
   * On a team route, a start that would leave an open session of this team behind asks first
   * (resume it, start another, or cancel); every start goes into the address's project.
   */
  requestStart(input: TStart): Promise<StartOutcome>;
  /**
   * The question of `requestStart` alone, for a start the hook does not make (an upload): true
   * when the screen may go on and start.
   */
  confirmStart(): Promise<boolean>;
  /** Why the user cannot answer or stop this session (someone else started it), if so. */
  readOnly: string | undefined;
  /** Sends feedback (blank text is refused locally). Other text than 'Approved' re-runs the phase. */
  submitFeedback(feedback: string): Promise<boolean>;
  /** Approve & Continue: sends 'Approved'. */
  approve(): Promise<boolean>;
  /** Back to idle with defaults; a running session is stopped on the server. */
  reset(): Promise<void>;
  /** Follows an existing session. */
  attach(sessionId: string): void;
  /** Reads the session now (e.g. after a pause or resume made elsewhere). */
  refresh(): Promise<void>;
}

function useConnectionState(socket: TeamSocket): ConnectionState {
  return useSyncExternalStore(
    (onChange) => socket.onStateChange(onChange),
    () => socket.state,
    () => 'idle',
  );
}

/**
 * A team screen's live session: real-time session-update messages merged
 * with polling of the status and logs calls every 2 s while the session can still change.
 * Updates for any other session are ignored.
 */
export function useTeamSession<TStart = GenericStartInput>(
  options: UseTeamSessionOptions<TStart>,
): TeamSession<TStart> {
  const { teamId, teamLabel = teamId, initialSessionId, isDone } = options;
  const alternate = options.pollCalls === 'alternate';
  const startErrorText =
    options.startErrorText ?? ((message: string) => `Error starting ${teamLabel}: ${message}`);
  const pollIntervalMs = options.pollIntervalMs ?? TEAM_POLL_INTERVAL_MS;
  const http = options.http ?? defaultHttp;
  const socket = options.socket ?? getTeamSocket();
  const scope = useTeamScope();
  const endpoints = useMemo(
    () =>
      ({
        ...genericSessionEndpoints(teamId),
        ...options.endpoints,
      }) as TeamSessionEndpoints<TStart>,
    [teamId, options.endpoints],
  );

  const [state, dispatch] = useReducer(sessionReducer, initialSessionState);
  const { isSubmitting, whileSubmitting } = useSubmitting();
  const connection = useConnectionState(socket);

  // Callbacks read the newest values without re-subscribing.
  const { nextPollDelay, onNotFound } = options;
  const latest = useRef({
    state,
    endpoints,
    http,
    startErrorText,
    nextPollDelay,
    onNotFound,
    scope,
  });
  useEffect(() => {
    latest.current = { state, endpoints, http, startErrorText, nextPollDelay, onNotFound, scope };
  });
  /** The session followed, as soon as the screen chose it (the state catches up a render later). */
  const followed = useRef<string | undefined>(undefined);
  /** Bumped by every local action: a poll that started before one is dropped. */
  const generation = useRef(0);
  const [fetchNow, setFetchNow] = useState(0);
  const [pollDelayMs, setPollDelayMs] = useState(pollIntervalMs);
  /** When the last real-time update of the current session arrived (Date.now()). */
  const lastUpdateAt = useRef<number | undefined>(undefined);
  /** Real-time updates received, and how many had been when a status reply was last read. */
  const updatesSeen = useRef(0);
  const updatesSeenAtStatus = useRef(0);

  /** With `onNotFound`, a 404 drops the session and hands over to the screen. */
  const forgetIfNotFound = useCallback((reply: ApiResult<unknown> | undefined): boolean => {
    const notFound = latest.current.onNotFound;
    if (!notFound || reply === undefined || !isFailure(reply) || reply.status !== 404) {
      return false;
    }
    generation.current += 1;
    followed.current = undefined;
    dispatch({ type: 'reset' });
    latest.current.scope?.setSessionId(undefined);
    notFound();
    return true;
  }, []);

  /** One read of the session; answers the failure of a call it made, if one failed. */
  const pollOnce = useCallback(
    async (
      sessionId: string,
      signal?: AbortSignal,
      calls: 'both' | 'status' | 'logs' = 'both',
    ): Promise<ApiFailure | undefined> => {
      const { endpoints: ep, http: client, state: current } = latest.current;
      const gen = generation.current;
      const after = current.sessionId === sessionId ? contiguousLogCount(current.logSlots) : 0;
      const readLogs = ep.logs && calls !== 'status';
      try {
        const [statusReply, logsReply] = await Promise.all([
          calls === 'logs' ? Promise.resolve(undefined) : client.get(ep.status(sessionId), signal),
          readLogs ? client.get(ep.logs!(sessionId, after), signal) : Promise.resolve(undefined),
        ]);
        if (signal?.aborted || gen !== generation.current) return undefined;
        if (forgetIfNotFound(statusReply) || forgetIfNotFound(logsReply)) return undefined;
        if (logsReply !== undefined) {
          if (isFailure(logsReply)) console.warn('Polling logs failed:', failureText(logsReply));
          else {
            const lines = ep.readLogs?.(logsReply, after);
            if (lines) dispatch({ type: 'logs', sessionId, lines });
          }
        }
        if (statusReply !== undefined) {
          if (isFailure(statusReply)) {
            // A failed poll is only logged: the next one may succeed, and the screen keeps its
            // state.
            console.warn('Polling status failed:', failureText(statusReply));
            return statusReply;
          }
          const snapshot = ep.readStatus(statusReply);
          if (snapshot) {
            updatesSeenAtStatus.current = updatesSeen.current;
            dispatch({ type: 'snapshot', sessionId, snapshot });
          }
        }
        return logsReply !== undefined && isFailure(logsReply) ? logsReply : undefined;
      } catch (err) {
        if (!signal?.aborted) console.warn('Polling failed:', err);
        return undefined;
      }
    },
    [forgetIfNotFound],
  );

  const { sessionId, status } = state;
  const logs = useMemo(() => logLines(state.logSlots), [state.logSlots]);
  const live =
    sessionId !== undefined && !SETTLED_STATUSES.includes(status) && !(isDone?.(logs) ?? false);

  // Polling while the session can change.
  useEffect(() => {
    if (!sessionId || !live) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = pollIntervalMs;
    let turn: 'status' | 'logs' = 'status';
    const tick = async () => {
      const calls = alternate ? turn : 'both';
      turn = turn === 'status' ? 'logs' : 'status';
      const failure = await pollOnce(sessionId, controller.signal, calls);
      if (controller.signal.aborted) return;
      const next = latest.current.nextPollDelay;
      delay = next ? next(delay, failure, lastUpdateAt.current) : pollIntervalMs;
      setPollDelayMs(delay);
      timer = setTimeout(tick, delay);
    };
    timer = setTimeout(tick, delay);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [sessionId, live, pollIntervalMs, alternate, pollOnce]);

  // A session that settled through a real-time update (which carries no outputs) is read at
  // once, so it shows (and downloads) the outputs of its last phase rather than those of the
  // reply read before (a report revised at the last checkpoint would otherwise show as it was
  // before the feedback); and once more after a poll interval, for the closing log lines, with
  // both calls whatever the polling's turn.
  const readStatusAtSettling = useCallback(
    async (id: string, signal: AbortSignal) => {
      // Settled by a read of the status: nothing newer to fetch.
      if (updatesSeen.current === updatesSeenAtStatus.current) return;
      await pollOnce(id, signal, 'status');
    },
    [pollOnce],
  );
  const readAfterSettling = useCallback(
    async (id: string, signal: AbortSignal) => {
      await pollOnce(id, signal, 'both');
    },
    [pollOnce],
  );
  useReadAfterSettling(sessionId, live, 0, readStatusAtSettling);
  useReadAfterSettling(sessionId, live, pollIntervalMs, readAfterSettling);

  // One immediate read when the screen attaches to a session it knows nothing about yet.
  useEffect(() => {
    if (!sessionId || fetchNow === 0) return;
    const controller = new AbortController();
    void pollOnce(sessionId, controller.signal, alternate ? 'status' : 'both');
    return () => controller.abort();
  }, [sessionId, fetchNow, alternate, pollOnce]);

  // Real-time updates for this session.
  const { subscriptionType } = endpoints;
  useEffect(() => {
    if (!sessionId) return;
    const offMessage = socket.onMessage((message) => {
      if (message.type !== 'session-update') return;
      if (message.sessionId === sessionId) {
        lastUpdateAt.current = Date.now();
        updatesSeen.current += 1;
      }
      dispatch({ type: 'update', update: message });
    });
    const offSubscription = socket.subscribe(subscriptionType, { sessionId });
    // The session is on screen: its checkpoints need no notification while the page is visible.
    const offWatch = socket.watch(sessionId);
    return () => {
      offMessage();
      offSubscription();
      offWatch();
    };
  }, [sessionId, subscriptionType, socket]);

  const attach = useCallback(
    (id: string, snapshot?: SessionSnapshot, started = false) => {
      generation.current += 1;
      followed.current = id;
      lastUpdateAt.current = undefined;
      setPollDelayMs(pollIntervalMs);
      dispatch({ type: 'attach', sessionId: id, started, ...(snapshot ? { snapshot } : {}) });
      if (!snapshot) setFetchNow((n) => n + 1);
      // From now on a reload, Back or a shared link opens this session.
      latest.current.scope?.setSessionId(id);
    },
    [pollIntervalMs],
  );

  // The session the address names (or the screen's own initial one), unless already followed.
  const addressed = initialSessionId ?? scope?.sessionId;
  useEffect(() => {
    if (addressed && addressed !== followed.current) attach(addressed);
  }, [addressed, attach]);

  // The frame learns which session is shown (whose it is, its project, where it stands), and the
  // project selector follows the shown session's project.
  const facts = useMemo(() => sessionFacts(state.session), [state.session]);
  const { ownerId, projectId: sessionProjectId } = facts;
  const show = scope?.show;
  const checkpointShown = state.checkpoint;
  useEffect(() => {
    if (!show) return;
    show(
      sessionId
        ? {
            sessionId,
            status,
            checkpoint: checkpointShown,
            ...(ownerId ? { ownerId } : {}),
            ...(sessionProjectId !== undefined ? { projectId: sessionProjectId } : {}),
          }
        : undefined,
    );
  }, [show, sessionId, status, checkpointShown, ownerId, sessionProjectId]);
  useEffect(() => (show ? () => show(undefined) : undefined), [show]);
  const setProjectId = scope?.setProjectId;
  useEffect(() => {
    if (setProjectId && sessionId && sessionProjectId) setProjectId(sessionProjectId);
  }, [setProjectId, sessionId, sessionProjectId]);
  const readOnly = readOnlyReason(scope?.userId, facts, scope?.editableProjects);

  /**
   * Whether a start may go on: on a team route, an open session of this team (the one shown, or
   * one of the user's found on the server) makes the frame ask; 'resume' follows that session.
   */
  const confirmStart = useCallback(async (): Promise<'start' | 'resume' | 'cancel'> => {
    const { scope: sc, state: current, http: client } = latest.current;
    if (!sc) return 'start';
    const mine = !readOnlyReason(sc.userId, sessionFacts(current.session), sc.editableProjects);
    let open: OpenSession | undefined;
    let shown = false;
    if (current.sessionId && isOpenStatus(current.status) && mine) {
      shown = true;
      open = {
        sessionId: current.sessionId,
        teamId,
        status: current.status,
        checkpoint: current.checkpoint,
      };
    } else {
      const list = await listOpenSessions(client, teamId);
      open = list.find((s) => s.sessionId !== current.sessionId);
    }
    if (!open) return 'start';
    const choice = await sc.ask({ session: open, shown });
    if (choice === 'resume' && !shown) attach(open.sessionId);
    return choice;
  }, [teamId, attach]);

  const startNow = useCallback(
    (input: TStart) =>
      whileSubmitting(async () => {
        const {
          endpoints: ep,
          http: client,
          startErrorText: errorText,
          scope: sc,
        } = latest.current;
        generation.current += 1;
        const request = ep.start(input);
        const reply = await client.post(request.path, withProject(request.body, sc?.projectId));
        if (forgetIfNotFound(reply)) return true;
        if (isFailure(reply)) {
          dispatch({
            type: 'failed',
            error: errorText(failureText(reply)),
            status: 'error',
          });
          // At the session limit the frame names the open sessions, each with its link.
          if (sc && isSessionLimitFailure(reply)) {
            sc.showOpenSessions(await listOpenSessions(client));
          }
          return false;
        }
        const started = ep.readStart(reply);
        if (!started) {
          dispatch({
            type: 'failed',
            error: errorText('Unknown error'),
            status: 'error',
          });
          return false;
        }
        latest.current.scope?.showOpenSessions(undefined);
        attach(started.sessionId, started.snapshot, true);
        return true;
      }),
    [whileSubmitting, attach, forgetIfNotFound],
  );

  const requestStart = useCallback(
    (input: TStart): Promise<StartOutcome> => {
      const outcome = (ok: boolean): StartOutcome => (ok ? 'started' : 'refused');
      // Outside a team route there is no one to ask: the call goes out at once, in this tick.
      if (!latest.current.scope) return startNow(input).then(outcome);
      return confirmStart().then((choice) =>
        choice === 'start' ? startNow(input).then(outcome) : 'declined',
      );
    },
    [confirmStart, startNow],
  );
  const start = useCallback(
    (input: TStart) => requestStart(input).then((outcome) => outcome === 'started'),
    [requestStart],
  );
  const confirm = useCallback(async () => (await confirmStart()) === 'start', [confirmStart]);

  const submitFeedback = useCallback(
    (feedback: string) =>
      whileSubmitting(async () => {
        const { endpoints: ep, http: client, state: current } = latest.current;
        const text = feedback.trim();
        if (!current.sessionId || !text) return false;
        generation.current += 1;
        const request = ep.feedback(current.sessionId, text, current.checkpoint);
        const reply = await client.post(request.path, request.body);
        if (forgetIfNotFound(reply)) return true;
        if (isFailure(reply)) {
          dispatch({ type: 'failed', error: `Error submitting feedback: ${failureText(reply)}` });
          return false;
        }
        const snapshot = ep.readFeedback?.(reply);
        dispatch({
          type: 'feedback-sent',
          sessionId: current.sessionId,
          sentAt: current.stateAt,
          ...(snapshot ? { snapshot } : {}),
        });
        return true;
      }),
    [whileSubmitting, forgetIfNotFound],
  );

  const approve = useCallback(() => submitFeedback(APPROVAL_FEEDBACK), [submitFeedback]);

  const reset = useCallback(
    () =>
      whileSubmitting(async () => {
        const { endpoints: ep, http: client, state: current, scope: sc } = latest.current;
        generation.current += 1;
        followed.current = undefined;
        setPollDelayMs(pollIntervalMs);
        dispatch({ type: 'reset' });
        sc?.setSessionId(undefined);
        sc?.showOpenSessions(undefined);
        const running = current.status === 'processing' || current.status === 'waiting_for_input';
        // A session the user may not drive is only left, never stopped from here.
        const mine = !readOnlyReason(
          sc?.userId,
          sessionFacts(current.session),
          sc?.editableProjects,
        );
        if (current.sessionId && running && mine && ep.reset) {
          const request = ep.reset(current.sessionId);
          const reply = await client.post(request.path, request.body);
          if (isFailure(reply)) console.warn('Reset failed:', failureText(reply));
        }
      }),
    [whileSubmitting, pollIntervalMs],
  );

  // Following the session already followed changes nothing (a link back to the same session).
  const follow = useCallback(
    (id: string) => {
      if (id !== followed.current) attach(id);
    },
    [attach],
  );
  const refresh = useCallback(async () => {
    const id = latest.current.state.sessionId;
    if (id) await pollOnce(id);
  }, [pollOnce]);

  return {
    sessionId: state.sessionId,
    status: state.status,
    phase: state.phase,
    checkpoint: state.checkpoint,
    checkpointData: state.checkpointData,
    logs,
    results: state.results,
    finalOutputs: state.finalOutputs,
    error: state.error,
    paused: state.paused,
    session: state.session,
    synced: state.synced,
    isProcessing: state.status === 'processing',
    isSubmitting,
    connection,
    pollDelayMs,
    start,
    requestStart,
    confirmStart: confirm,
    readOnly,
    submitFeedback,
    approve,
    reset,
    attach: follow,
    refresh,
  };
}
