import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { APPROVAL_FEEDBACK, type SessionStatus } from '../../../common/agents';
import {
  LITERATURE_MESSAGES,
  LITERATURE_POLLING,
  LITERATURE_SUBSCRIPTION,
  literatureCheckpointDataSchema,
  REPORT_PREVIEW_FETCHES,
  REPORT_PREVIEW_INTERVAL_MS,
  type LiteratureStatusReply,
  type Paper,
  type Reference,
  type ResearchGap,
  type StartLiteratureRequest,
  type Trend,
  type Verification,
} from '../../../common/teams/literature';
import { failureText, isFailure, type ApiFailure } from '../../api/client';
import { getTeamSocket, type TeamSocket } from '../../api/ws';
import {
  initialSessionState,
  logLines,
  sessionReducer,
  SETTLED_STATUSES,
} from '../shared/sessionState';
import { literatureApi, type LiteratureApi } from './literatureApi';
import {
  isDecodingError,
  isHighDemand,
  nextPollDelay,
  reportFromLogs,
  type PollOutcome,
} from './rules';
import {
  SAMPLE_GAPS,
  SAMPLE_LOGS,
  SAMPLE_PAPERS,
  SAMPLE_REFERENCES,
  SAMPLE_REPORT,
  SAMPLE_TRENDS,
} from './sampleData';
import { useReadAfterSettling } from '../shared/useReadAfterSettling';
import { useSubmitting } from '../shared/useSubmitting';

/**
 * The Literature screen's live session (agent-teams.md §4, §7, §8, §9). Unlike the other teams it
 * alternates its status and logs calls, one per tick: every 2 s, 4 s while real-time messages
 * keep arriving (one in the last 12 s); after a 429 or 'high demand' failure the wait doubles up
 * to 30 s, after another failure it grows by 1 s up to 15 s. A 404 shows the built-in sample
 * data, labelled. Errors about character decoding are not shown.
 */

export interface LiteratureOutputs {
  papers: Paper[];
  researchGaps: ResearchGap[];
  trends: Trend[];
  references: Reference[];
  finalReport: string | null;
  verification: Verification | null;
  documents: { report: string | null; bibliography: string | null } | null;
}

const EMPTY: LiteratureOutputs = {
  papers: [],
  researchGaps: [],
  trends: [],
  references: [],
  finalReport: null,
  verification: null,
  documents: null,
};

const SAMPLE: LiteratureOutputs = {
  papers: SAMPLE_PAPERS,
  researchGaps: SAMPLE_GAPS,
  trends: SAMPLE_TRENDS,
  references: SAMPLE_REFERENCES,
  finalReport: SAMPLE_REPORT,
  verification: null,
  documents: null,
};

export interface UseLiteratureSessionOptions {
  api?: LiteratureApi;
  socket?: TeamSocket;
  now?: () => number;
  initialSessionId?: string;
}

export interface LiteratureSession {
  sessionId: string | undefined;
  status: SessionStatus;
  phase: number;
  checkpoint: number | null;
  logs: string[];
  outputs: LiteratureOutputs;
  /** The report to preview from checkpoint 3 on (checkpoint data, the status reply or the logs). */
  reportPreview: string | undefined;
  error: string | undefined;
  /** The built-in sample is shown (a call answered 404). */
  sample: boolean;
  isProcessing: boolean;
  isSubmitting: boolean;
  /** The wait before the next poll (for the screen's tests and diagnostics). */
  pollDelayMs: number;
  start(request: StartLiteratureRequest): Promise<boolean>;
  submitFeedback(text: string): Promise<boolean>;
  approve(): Promise<boolean>;
  reset(): Promise<void>;
}

function outcomeOf(failure: ApiFailure): PollOutcome {
  return failure.status === 429 || isHighDemand(failure.error) || isHighDemand(failure.message)
    ? 'high-demand'
    : 'failed';
}

export function useLiteratureSession(options: UseLiteratureSessionOptions = {}): LiteratureSession {
  const api = useMemo(() => options.api ?? literatureApi(), [options.api]);
  const socket = options.socket ?? getTeamSocket();
  const now = options.now ?? Date.now;
  const [state, dispatch] = useReducer(sessionReducer, initialSessionState);
  const [reply, setReply] = useState<Partial<LiteratureOutputs>>({});
  const [sample, setSample] = useState(false);
  const { isSubmitting, whileSubmitting } = useSubmitting();
  const [pollDelayMs, setPollDelayMs] = useState<number>(LITERATURE_POLLING.baseMs);
  const [logReport, setLogReport] = useState<string>();
  const lastSocketAt = useRef<number | undefined>(undefined);
  const generation = useRef(0);

  const toSample = useCallback(() => {
    generation.current += 1;
    setSample(true);
    dispatch({ type: 'reset' });
  }, []);

  const applyStatus = useCallback((sessionId: string, r: LiteratureStatusReply) => {
    dispatch({
      type: 'snapshot',
      sessionId,
      snapshot: {
        status: r.status,
        phase: r.phase,
        checkpoint: r.checkpoint,
        checkpointData: r.checkpointData,
        logs: r.logs,
        error: r.error,
        updatedAt: r.updatedAt,
        session: r,
      },
    });
    setReply({
      papers: r.papers,
      researchGaps: r.researchGaps,
      trends: r.trends,
      references: r.references,
      finalReport: r.finalReport,
      verification: r.verification,
      documents: r.documents,
    });
  }, []);

  const { sessionId, status } = state;
  const live = sessionId !== undefined && !sample && !SETTLED_STATUSES.includes(status);

  // Polling: status, then logs, then status... each tick waits as the rules say.
  useEffect(() => {
    if (!sessionId || !live) return;
    const controller = new AbortController();
    const gen = generation.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let next: 'status' | 'logs' = 'status';
    let delay: number = LITERATURE_POLLING.baseMs;
    const tick = async () => {
      let outcome: PollOutcome = 'ok';
      const call = next;
      next = next === 'status' ? 'logs' : 'status';
      const failure = async (): Promise<ApiFailure | 'aborted' | undefined> => {
        if (call === 'status') {
          const r = await api.status(sessionId, controller.signal);
          if (controller.signal.aborted || gen !== generation.current) return 'aborted';
          if (isFailure(r)) return r;
          applyStatus(sessionId, r);
        } else {
          const r = await api.logs(sessionId, controller.signal);
          if (controller.signal.aborted || gen !== generation.current) return 'aborted';
          if (isFailure(r)) return r;
          const lines = r.logs.map((message, i) => ({ seq: i + 1, message }));
          dispatch({ type: 'logs', sessionId, lines });
        }
        return undefined;
      };
      const failed = await failure();
      if (failed === 'aborted') return;
      if (failed) {
        if (failed.status === 404) return toSample();
        // agent-teams.md §8: polling failures are only logged.
        console.warn(`Polling ${call} failed:`, failureText(failed));
        outcome = outcomeOf(failed);
      }
      delay = nextPollDelay(delay, outcome, lastSocketAt.current, now());
      setPollDelayMs(delay);
      timer = setTimeout(() => void tick(), delay);
    };
    timer = setTimeout(() => void tick(), delay);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [sessionId, live, api, applyStatus, toSample, now]);

  const readClosingLogs = useCallback(
    async (id: string, signal: AbortSignal) => {
      const r = await api.logs(id, signal);
      if (signal.aborted || isFailure(r)) return;
      const lines = r.logs.map((message, i) => ({ seq: i + 1, message }));
      dispatch({ type: 'logs', sessionId: id, lines });
    },
    [api],
  );
  useReadAfterSettling(
    sample ? undefined : sessionId,
    live,
    LITERATURE_POLLING.baseMs,
    readClosingLogs,
  );

  // Real-time updates for this session (the reducer ignores other sessions).
  useEffect(() => {
    if (!sessionId || sample) return;
    const offMessage = socket.onMessage((message) => {
      if (message.type !== 'session-update' || message.sessionId !== sessionId) return;
      lastSocketAt.current = now();
      dispatch({ type: 'update', update: message });
    });
    const offSubscription = socket.subscribe(LITERATURE_SUBSCRIPTION, { sessionId });
    return () => {
      offMessage();
      offSubscription();
    };
  }, [sessionId, sample, socket, now]);

  const checkpointData = useMemo(() => {
    const parsed = literatureCheckpointDataSchema.safeParse(state.checkpointData ?? {});
    return parsed.success ? parsed.data : {};
  }, [state.checkpointData]);

  const outputs: LiteratureOutputs = useMemo(() => {
    if (sample) return SAMPLE;
    return {
      ...EMPTY,
      ...reply,
      ...(checkpointData.papers ? { papers: checkpointData.papers } : {}),
      ...(checkpointData.researchGaps ? { researchGaps: checkpointData.researchGaps } : {}),
      ...(checkpointData.trends ? { trends: checkpointData.trends } : {}),
      ...(checkpointData.references ? { references: checkpointData.references } : {}),
      ...(checkpointData.finalReport ? { finalReport: checkpointData.finalReport } : {}),
      ...(checkpointData.verification ? { verification: checkpointData.verification } : {}),
    };
  }, [sample, reply, checkpointData]);

  const logs = useMemo(
    () => (sample ? SAMPLE_LOGS : logLines(state.logSlots)),
    [sample, state.logSlots],
  );
  const reportStage = (state.checkpoint ?? 0) >= 3 || state.phase >= 5 || status === 'completed';
  const knownReport = checkpointData.finalReport ?? outputs.finalReport ?? undefined;

  // From checkpoint 3 on, a report not in the checkpoint data is looked for in the logs:
  // up to 3 log fetches, 400 ms apart.
  useEffect(() => {
    if (!sessionId || sample || !reportStage || knownReport) return;
    const fromKnown = reportFromLogs(logs);
    if (fromKnown) {
      setLogReport(fromKnown);
      return;
    }
    let cancelled = false;
    void (async () => {
      for (let i = 0; i < REPORT_PREVIEW_FETCHES && !cancelled; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, REPORT_PREVIEW_INTERVAL_MS));
        if (cancelled) return;
        const result = await api.logs(sessionId);
        if (cancelled || isFailure(result)) continue;
        const found = reportFromLogs(result.logs);
        if (found) {
          setLogReport(found);
          return;
        }
      }
    })();
    return () => {
      cancelled = true;
    };
    // Logs are read when the stage is reached, not on every new line.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId, sample, reportStage, knownReport, api]);

  const start = useCallback(
    (request: StartLiteratureRequest) =>
      whileSubmitting(async () => {
        generation.current += 1;
        setSample(false);
        setReply({});
        setLogReport(undefined);
        setPollDelayMs(LITERATURE_POLLING.baseMs);
        const result = await api.start(request);
        if (isFailure(result)) {
          if (result.status === 404) {
            toSample();
            return true;
          }
          dispatch({
            type: 'failed',
            status: 'error',
            error: `Error starting LiteratureTeam: ${failureText(result) || LITERATURE_MESSAGES.startFailed}`,
          });
          return false;
        }
        dispatch({
          type: 'attach',
          sessionId: result.sessionId,
          started: true,
          snapshot: { status: result.status, phase: Math.max(1, result.phase) },
        });
        return true;
      }),
    [api, whileSubmitting, toSample],
  );

  const submitFeedback = useCallback(
    (text: string) =>
      whileSubmitting(async () => {
        const feedback = text.trim();
        const id = state.sessionId;
        const sentAt = state.stateAt;
        if (!feedback || !id) return false;
        generation.current += 1;
        const result = await api.feedback(id, feedback);
        if (isFailure(result)) {
          if (result.status === 404) {
            toSample();
            return true;
          }
          dispatch({
            type: 'failed',
            error: `Error submitting feedback: ${failureText(result) || LITERATURE_MESSAGES.feedbackFailed}`,
          });
          return false;
        }
        dispatch({
          type: 'feedback-sent',
          sessionId: id,
          sentAt,
          snapshot: { status: result.status, phase: result.phase, error: result.error },
        });
        setReply((r) => ({
          ...r,
          papers: result.papers,
          researchGaps: result.researchGaps,
          trends: result.trends,
          references: result.references,
          finalReport: result.finalReport,
        }));
        return true;
      }),
    [api, whileSubmitting, toSample, state.sessionId, state.stateAt],
  );

  const approve = useCallback(() => submitFeedback(APPROVAL_FEEDBACK), [submitFeedback]);

  const reset = useCallback(
    () =>
      whileSubmitting(async () => {
        const id = state.sessionId;
        const running = status === 'processing' || status === 'waiting_for_input';
        generation.current += 1;
        dispatch({ type: 'reset' });
        setSample(false);
        setReply({});
        setLogReport(undefined);
        setPollDelayMs(LITERATURE_POLLING.baseMs);
        if (id && running) {
          const result = await api.reset(id);
          if (isFailure(result)) console.warn('Reset failed:', failureText(result));
        }
      }),
    [api, whileSubmitting, state.sessionId, status],
  );

  // Follow a session named in the address (a notification's link).
  const { initialSessionId } = options;
  useEffect(() => {
    if (!initialSessionId) return;
    dispatch({ type: 'attach', sessionId: initialSessionId });
    void api.status(initialSessionId).then((r) => {
      if (isFailure(r)) {
        if (r.status === 404) toSample();
        return;
      }
      applyStatus(initialSessionId, r);
    });
  }, [initialSessionId, api, applyStatus, toSample]);

  const shownError = sample ? undefined : state.error;
  return {
    sessionId: sample ? undefined : state.sessionId,
    status: sample ? 'completed' : status,
    phase: sample ? 5 : state.phase,
    checkpoint: sample ? null : state.checkpoint,
    logs,
    outputs,
    reportPreview: sample ? SAMPLE_REPORT : reportStage ? (knownReport ?? logReport) : undefined,
    error: shownError && !isDecodingError(shownError) ? shownError : undefined,
    sample,
    isProcessing: !sample && status === 'processing',
    isSubmitting,
    pollDelayMs,
    start,
    submitFeedback,
    approve,
    reset,
  };
}
