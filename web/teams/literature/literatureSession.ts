import {
  LITERATURE_SUBSCRIPTION,
  literatureCheckpointDataSchema,
  literatureFeedbackReplySchema,
  literatureOutputsSchema,
  literatureStatusReplySchema,
  type LiteratureOutputs,
  type StartLiteratureRequest,
} from '../../../common/teams/literature';
import { parseOrUndefined, teamLogsReplySchema } from '../../../common/teams/shared';
import type { ApiFailure } from '../../api/client';
import {
  genericSessionEndpoints,
  readTeamStartReply,
  type SessionHttp,
  type SessionSnapshot,
  type TeamSessionEndpoints,
} from '../shared';
import { LITERATURE_BASE } from './literatureApi';
import { isHighDemand, nextPollDelay } from './rules';

/**
 * How the Literature screen talks to /api/literature-team through the shared session hook: the
 * status call carries the whole log and the session's outputs (papers, gaps, trends, references,
 * report), the logs call the whole log again; start and feedback answer the shared reply (the
 * feedback reply with the outputs too).
 */

const sessionPath = (call: 'status' | 'logs', sessionId: string) =>
  `${LITERATURE_BASE}/${call}/${encodeURIComponent(sessionId)}`;

/** The whole log of a logs reply, line n numbered n; undefined when the reply is not one. */
export function readLiteratureLogs(reply: unknown): string[] | undefined {
  return parseOrUndefined(teamLogsReplySchema, reply)?.logs;
}

/**
 * A status reply as the hook's snapshot. Its `session` is the reply itself, which the screen
 * reads the outputs from (`outputsOfReply`).
 */
function readStatus(reply: unknown): SessionSnapshot | undefined {
  const r = parseOrUndefined(literatureStatusReplySchema, reply);
  if (!r) return undefined;
  return {
    status: r.status,
    phase: r.phase,
    checkpoint: r.checkpoint,
    checkpointData: r.checkpointData,
    logs: r.logs,
    error: r.error,
    updatedAt: r.updatedAt,
    session: r,
  };
}

/** A feedback reply: the session as it now stands, with the reply (and outputs) as `session`. */
function readFeedback(reply: unknown): SessionSnapshot | undefined {
  const r = parseOrUndefined(literatureFeedbackReplySchema, reply);
  const started = readTeamStartReply(reply);
  return r && started ? { ...started.snapshot, session: r } : undefined;
}

const generic = genericSessionEndpoints('literature');

export const literatureEndpoints: Partial<TeamSessionEndpoints<StartLiteratureRequest>> = {
  subscriptionType: LITERATURE_SUBSCRIPTION,
  start: (request) => ({ path: `${LITERATURE_BASE}/start`, body: request }),
  readStart: readTeamStartReply,
  status: (sessionId) => sessionPath('status', sessionId),
  readStatus,
  // The logs call answers the whole log, whatever is known already.
  logs: (sessionId) => sessionPath('logs', sessionId),
  readLogs: (reply) => readLiteratureLogs(reply)?.map((message, i) => ({ seq: i + 1, message })),
  feedback: (sessionId, feedback) => ({
    path: `${LITERATURE_BASE}/feedback`,
    body: { feedback, sessionId },
  }),
  readFeedback,
  reset: generic.reset,
};

/** Reads the whole log once (the report preview looks for the report in it). */
export async function fetchLiteratureLogs(
  http: SessionHttp,
  sessionId: string,
): Promise<string[] | undefined> {
  return readLiteratureLogs(await http.get(sessionPath('logs', sessionId)));
}

/**
 * The wait before the next poll: 2 s, 4 s while real-time messages keep arriving, longer after
 * failures (doubling after a 429 or 'high demand', one step at a time after others).
 */
export function literaturePollDelay(
  previousMs: number,
  failure: ApiFailure | undefined,
  lastUpdateAt: number | undefined,
): number {
  const outcome = !failure
    ? 'ok'
    : failure.status === 429 || isHighDemand(failure.error) || isHighDemand(failure.message)
      ? 'high-demand'
      : 'failed';
  return nextPollDelay(previousMs, outcome, lastUpdateAt, Date.now());
}

export const EMPTY_OUTPUTS: LiteratureOutputs = {
  papers: [],
  researchGaps: [],
  trends: [],
  references: [],
  finalReport: null,
  verification: null,
  documents: null,
};

const replyOutputsSchema = literatureOutputsSchema.partial();

/**
 * What the screen shows: the outputs of the last status or feedback reply (the session record),
 * with what the checkpoint shows over them.
 */
export function outputsOf(session: unknown, checkpointData: unknown): LiteratureOutputs {
  const reply = parseOrUndefined(replyOutputsSchema, session) ?? {};
  const shown = parseOrUndefined(literatureCheckpointDataSchema, checkpointData) ?? {};
  return {
    ...EMPTY_OUTPUTS,
    ...reply,
    ...(shown.papers ? { papers: shown.papers } : {}),
    ...(shown.researchGaps ? { researchGaps: shown.researchGaps } : {}),
    ...(shown.trends ? { trends: shown.trends } : {}),
    ...(shown.references ? { references: shown.references } : {}),
    ...(shown.finalReport ? { finalReport: shown.finalReport } : {}),
    ...(shown.verification ? { verification: shown.verification } : {}),
  };
}
