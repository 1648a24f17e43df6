import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  agentPanels,
  hasTerminated,
  IDEATION_POLL_INTERVAL_MS,
  parseFinalQuestions,
  splitAutomaticItems,
  type AgentPanel,
  type IdeationLogsReply,
  type IdeationMode,
  type QuestionItem,
  type StartIdeationRequest,
} from '../../../common/teams/ideation';
import { failureText, isFailure } from '../../api/client';
import { ideationApi } from './api';

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

/**
 * One ideation run on the screen (agent-teams.md §4, §7, §8): start answers at once, then the
 * log is polled every 1.5 s until a line contains TERMINATE (complete) or the session reports
 * an error. Polling failures are ignored silently; the next poll tries again.
 */
export function useIdeationRun(pollMs = IDEATION_POLL_INTERVAL_MS): IdeationRun {
  const [state, setState] = useState<RunState>('idle');
  const [mode, setMode] = useState<IdeationMode | null>(null);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [logs, setLogs] = useState<string[]>([]);
  const [details, setDetails] = useState<IdeationLogsReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped by every start: a poll of an earlier run never writes into this one.
  const runRef = useRef(0);

  useEffect(() => {
    if (state !== 'generating' || !sessionId) return;
    const run = runRef.current;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const reply = await ideationApi.logs(sessionId, controller.signal);
        if (run !== runRef.current || controller.signal.aborted) return;
        if (!isFailure(reply)) {
          setLogs(reply.logs);
          setDetails(reply);
          setMode(reply.mode);
          if (hasTerminated(reply.logs)) {
            setState('complete');
            return;
          }
          if (reply.status === 'error') {
            setError(reply.error ?? 'Unknown error');
            setState('error');
            return;
          }
        }
      } catch {
        // Aborted (the screen left or a new run began), or a failed poll: ignored (spec §8).
        if (controller.signal.aborted) return;
      }
      timer = setTimeout(() => void poll(), pollMs);
    };
    timer = setTimeout(() => void poll(), pollMs);
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [state, sessionId, pollMs]);

  const start = useCallback(async (body: StartIdeationRequest) => {
    const run = ++runRef.current;
    setState('generating');
    setMode(body.mode ?? 'human');
    setSessionId(null);
    setLogs([]);
    setDetails(null);
    setError(null);
    const reply = await ideationApi.start(body);
    if (run !== runRef.current) return;
    if (isFailure(reply)) {
      setError(failureText(reply));
      setState('error');
      return;
    }
    setSessionId(reply.sessionId);
    setLogs(reply.logs);
  }, []);

  const follow = useCallback((id: string) => {
    ++runRef.current;
    setSessionId(id);
    setMode(null);
    setLogs([]);
    setDetails(null);
    setError(null);
    setState('generating');
  }, []);

  const parsed = useMemo(() => parseFinalQuestions(logs), [logs]);
  const reported = useRef<string | null>(null);
  useEffect(() => {
    // Reported to the console only, once per line (agent-teams.md §8).
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
    sessionId,
    logs,
    details,
    error,
    panels: agentPanels(logs, state === 'generating'),
    questions: split.questions,
    topics: split.topics,
    start,
    follow,
  };
}
