import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SessionStatus } from '../../../common/agents';
import {
  LITERATURE_POLLING,
  LITERATURE_TEAM_ID,
  REPORT_PREVIEW_FETCHES,
  REPORT_PREVIEW_INTERVAL_MS,
  type LiteratureOutputs,
  type StartLiteratureRequest,
} from '../../../common/teams/literature';
import type { TeamSocket } from '../../api/ws';
import { useTeamSession, type SessionHttp } from '../shared';
import { literatureHttp } from './literatureApi';
import {
  fetchLiteratureLogs,
  literatureEndpoints,
  literaturePollDelay,
  outputsOf,
} from './literatureSession';
import { isDecodingError, reportFromLogs } from './rules';
import {
  SAMPLE_GAPS,
  SAMPLE_LOGS,
  SAMPLE_PAPERS,
  SAMPLE_REFERENCES,
  SAMPLE_REPORT,
  SAMPLE_TRENDS,
} from './sampleData';

/**
 * The Literature screen's live session: the shared session hook with the team's rules as its
 * options (the status and logs calls in turn, one per poll; the poll's wait from
 * `literaturePollDelay`; 429s retried by `literatureHttp`), and around it what only this screen
 * does: a call answered 404 shows the built-in sample data, labelled; errors about character
 * decoding are not shown; from checkpoint 3 on the report is previewed, from the checkpoint data,
 * the status reply or, failing those, the logs.
 */

const SAMPLE: LiteratureOutputs = {
  papers: SAMPLE_PAPERS,
  researchGaps: SAMPLE_GAPS,
  trends: SAMPLE_TRENDS,
  references: SAMPLE_REFERENCES,
  finalReport: SAMPLE_REPORT,
  verification: null,
  documents: null,
};

/** How a refused start reads on this screen. */
export function literatureStartErrorText(message: string): string {
  return `The literature review could not start: ${message}`;
}

export interface UseLiteratureSessionOptions {
  /** The session calls' HTTP (default: the app's client with the 429 retries; tests: a fake). */
  http?: SessionHttp;
  socket?: TeamSocket;
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
  /** The session record last read (with its `input` and `configuration`); none for the sample. */
  record: unknown;
  start(request: StartLiteratureRequest): Promise<boolean>;
  submitFeedback(text: string): Promise<boolean>;
  approve(): Promise<boolean>;
  reset(): Promise<void>;
}

export function useLiteratureSession(options: UseLiteratureSessionOptions = {}): LiteratureSession {
  const http = useMemo(() => options.http ?? literatureHttp(), [options.http]);
  const [sample, setSample] = useState(false);
  const [logReport, setLogReport] = useState<string>();
  const showSample = useCallback(() => setSample(true), []);
  const session = useTeamSession<StartLiteratureRequest>({
    teamId: LITERATURE_TEAM_ID,
    // Words a researcher reads, not the team's internal name.
    startErrorText: literatureStartErrorText,
    endpoints: literatureEndpoints,
    http,
    socket: options.socket,
    initialSessionId: options.initialSessionId,
    pollIntervalMs: LITERATURE_POLLING.baseMs,
    pollCalls: 'alternate',
    nextPollDelay: literaturePollDelay,
    onNotFound: showSample,
  });
  const { sessionId, status, phase, checkpoint } = session;

  const outputs = useMemo(
    () => (sample ? SAMPLE : outputsOf(session.session, session.checkpointData)),
    [sample, session.session, session.checkpointData],
  );
  const reportStage = (checkpoint ?? 0) >= 3 || phase >= 5 || status === 'completed';
  const knownReport = outputs.finalReport ?? undefined;

  // From checkpoint 3 on, a report the replies do not carry is looked for in the logs: up to 3
  // log fetches, 400 ms apart.
  const { logs } = session;
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
        const lines = await fetchLiteratureLogs(http, sessionId);
        const found = lines && reportFromLogs(lines);
        if (cancelled || !found) continue;
        setLogReport(found);
        return;
      }
    })();
    return () => {
      cancelled = true;
    };
    // Logs are read when the stage is reached, not on every new line.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId, sample, reportStage, knownReport, http]);

  const { start: startSession, reset: resetSession } = session;
  const start = useCallback(
    (request: StartLiteratureRequest) => {
      setSample(false);
      setLogReport(undefined);
      return startSession(request);
    },
    [startSession],
  );
  const reset = useCallback(() => {
    setSample(false);
    setLogReport(undefined);
    return resetSession();
  }, [resetSession]);

  const error = sample ? undefined : session.error;
  return {
    sessionId: sample ? undefined : sessionId,
    status: sample ? 'completed' : status,
    phase: sample ? 5 : phase,
    checkpoint: sample ? null : checkpoint,
    logs: sample ? SAMPLE_LOGS : logs,
    outputs,
    reportPreview: sample ? SAMPLE_REPORT : reportStage ? (knownReport ?? logReport) : undefined,
    error: error && !isDecodingError(error) ? error : undefined,
    sample,
    isProcessing: !sample && session.isProcessing,
    isSubmitting: session.isSubmitting,
    pollDelayMs: session.pollDelayMs,
    record: sample ? undefined : session.session,
    start,
    submitFeedback: session.submitFeedback,
    approve: session.approve,
    reset,
  };
}
