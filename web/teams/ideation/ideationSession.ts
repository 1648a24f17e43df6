import {
  IDEATION_TEAM_ID,
  ideationInputSchema,
  ideationLogsReplySchema,
  startIdeationReplySchema,
  type IdeationLogsReply,
  type IdeationMode,
  type StartIdeationRequest,
} from '../../../common/teams/ideation';
import { parseOrUndefined } from '../../../common/teams/shared';
import {
  genericSessionEndpoints,
  snapshotOfSession,
  type SessionSnapshot,
  type TeamSessionEndpoints,
} from '../shared';
import type { SessionInputs } from '../shared/useSessionInput';
import { IDEATION_BASE } from './api';

/** The start form of a session reopened on the screen: its mode and idea (none when automatic). */
export function ideationFormOf(
  inputs: SessionInputs,
): { mode: IdeationMode; idea: string } | undefined {
  const parsed = ideationInputSchema.safeParse(inputs.input);
  if (!parsed.success) return undefined;
  return parsed.data.mode === 'human'
    ? { mode: 'human', idea: parsed.data.idea }
    : { mode: 'automatic', idea: '' };
}

/**
 * How the Ideation screen's session talks to /api/agents/ideation-team: start answers at once
 * with the session and its first log lines; the logs call (the only one polled) carries the
 * whole log with the session's state and the structured results so far. The team has no
 * checkpoints, so feedback is never sent; a reset stops the session through the runtime.
 */

/** The logs reply as the shared session state; its parsed body is kept as the `session`. */
export function readLogsReply(reply: unknown): SessionSnapshot | undefined {
  const parsed = ideationLogsReplySchema.safeParse(reply);
  if (!parsed.success) return undefined;
  const r = parsed.data;
  return { status: r.status, phase: r.phase, logs: r.logs, error: r.error, session: r };
}

/** The last logs reply the session state holds (undefined before the first poll). */
export function logsReplyOf(session: unknown): IdeationLogsReply | undefined {
  return parseOrUndefined(ideationLogsReplySchema, session);
}

export const ideationEndpoints: Partial<TeamSessionEndpoints<StartIdeationRequest>> = {
  start: (body) => ({ path: IDEATION_BASE, body }),
  readStart: (reply) => {
    const parsed = startIdeationReplySchema.safeParse(reply);
    if (!parsed.success) return undefined;
    const { sessionId, session, logs } = parsed.data;
    return { sessionId, snapshot: snapshotOfSession(session, logs) };
  },
  status: (id) => `${IDEATION_BASE}/logs/${encodeURIComponent(id)}`,
  readStatus: readLogsReply,
  // The polled call carries the whole log.
  logs: undefined,
  readLogs: undefined,
  reset: genericSessionEndpoints(IDEATION_TEAM_ID).reset,
};
