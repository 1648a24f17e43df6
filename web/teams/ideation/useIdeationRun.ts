import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  agentPanels,
  hasTerminated,
  IDEATION_POLL_INTERVAL_MS,
  IDEATION_TEAM_ID,
  parseFinalQuestions,
  splitAutomaticItems,
  type AgentPanel,
  type IdeationLogsReply,
  type IdeationMode,
  type QuestionItem,
  type StartIdeationRequest,
} from '../../../common/teams/ideation';
import type { TeamSocket } from '../../api/ws';
import { useTeamSession, type SessionHttp, type TeamSession } from '../shared';
import { ideationEndpoints, logsReplyOf } from './ideationSession';

export type RunState = 'idle' | 'generating' | 'complete' | 'error';

export interface IdeationRun {
  state: RunState;
  mode: IdeationMode | null;
  sessionId: string | null;
  logs: string[];
  /** The last logs reply: structured results (topics, grounding) as the phases finish. */
  details: IdeationLogsReply | null;
  /** 'Error: {message}' is shown with this. */
  error: string | null;
  panels: AgentPanel[];
  /** From the FINAL_QUESTIONS line (automatic mode: the items after the 5 topics). */
  questions: QuestionItem[];
  /** Automatic mode: the first 5 items of the FINAL_QUESTIONS line. */
  topics: QuestionItem[];
  start(body: StartIdeationRequest): Promise<void>;
  /** Follows an existing session (e.g. from a notification's ?session= link). */
  follow(sessionId: string): void;
}

/** Tests hand the shared session hook their own HTTP and socket; the app uses its own. */
export interface IdeationRunOptions {
  http?: SessionHttp;
  socket?: TeamSocket;
}

/** The start the screen asked for: shown at once, and without the last run when refused. */
interface Requested {
  mode: IdeationMode;
  outcome: 'pending' | 'started' | 'refused';
}

const NO_LINES: string[] = [];

// A refused start's message is shown as 'Error: {message}', with nothing before the message.
const serverMessage = (message: string) => message;

function runStateOf(session: TeamSession<StartIdeationRequest>, logs: string[]): RunState {
  if (!session.sessionId) return session.status === 'error' ? 'error' : 'idle';
  if (hasTerminated(logs) || session.status === 'completed') return 'complete';
  if (session.status === 'error') return 'error';
  // A followed session not read yet is shown as running, as the link promised.
  if (!session.synced || session.status !== 'idle') return 'generating';
  return 'idle';
}

/**
 * One ideation run on the screen, on the shared session hook: start answers at once, then the
 * logs call is polled every 1.5 s (beside the real-time channel) until a line contains TERMINATE
 * (complete) or the session reports an error. Failed polls change nothing on the screen; the
 * next poll tries again.
 */
export function useIdeationRun(options: IdeationRunOptions = {}): IdeationRun {
  const session = useTeamSession<StartIdeationRequest>({
    teamId: IDEATION_TEAM_ID,
    endpoints: ideationEndpoints,
    pollIntervalMs: IDEATION_POLL_INTERVAL_MS,
    isDone: hasTerminated,
    startErrorText: serverMessage,
    ...options,
  });
  const [requested, setRequested] = useState<Requested | null>(null);

  const { requestStart, attach } = session;
  const start = useCallback(
    async (body: StartIdeationRequest) => {
      const mode = body.mode ?? 'human';
      setRequested({ mode, outcome: 'pending' });
      const outcome = await requestStart(body);
      // Declined: the user resumed an open session or kept the one shown; nothing was refused.
      setRequested(outcome === 'declined' ? null : { mode, outcome });
    },
    [requestStart],
  );

  const follow = useCallback(
    (id: string) => {
      setRequested(null);
      attach(id);
    },
    [attach],
  );

  // While a start is on its way, and after it was refused, the previous run is not shown.
  const fresh = requested !== null && requested.outcome !== 'started';
  const logs = fresh ? NO_LINES : session.logs;
  const details = useMemo(
    () => (fresh ? undefined : logsReplyOf(session.session)),
    [fresh, session.session],
  );
  const state: RunState =
    requested?.outcome === 'pending'
      ? 'generating'
      : requested?.outcome === 'refused'
        ? 'error'
        : runStateOf(session, logs);
  const mode = details?.mode ?? requested?.mode ?? null;

  const parsed = useMemo(() => parseFinalQuestions(logs), [logs]);
  const reported = useRef<string | null>(null);
  useEffect(() => {
    // Reported to the console only, once per line: the screen shows what it could read.
    if (parsed.found && !parsed.ok && reported.current !== parsed.error) {
      reported.current = parsed.error;
      console.error('Failed to parse final questions', parsed.error);
    }
  }, [parsed]);

  const items = parsed.found && parsed.ok ? parsed.items : [];
  const split =
    mode === 'automatic' ? splitAutomaticItems(items) : { topics: [], questions: items };

  return {
    state,
    mode,
    sessionId: fresh ? null : (session.sessionId ?? null),
    logs,
    details: details ?? null,
    error: state === 'error' ? (session.error ?? 'Unknown error') : null,
    panels: agentPanels(logs, state === 'generating'),
    questions: split.questions,
    topics: split.topics,
    start,
    follow,
  };
}
