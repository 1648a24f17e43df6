import type { z } from 'zod';
import {
  subscriptionTypeOf,
  type AgentSession,
  type LogsReply,
  type SessionActionReply,
  type SessionStatusReply,
  type StartSessionRequest,
} from '../../../common/agents';
import { teamStartReplySchema } from '../../../common/teams/shared';
import { snapshotOfSession, type LogLine, type SessionSnapshot } from './sessionState';

/**
 * Where a team screen's session calls go and how their replies read. Every team has its own
 * routes in the spec (literature: /api/literature-team/..., data: /api/agents/data-team/...);
 * the defaults are the runtime's generic session endpoints (/api/agents/sessions/...).
 */
export interface RequestSpec {
  path: string;
  body: unknown;
}

export interface TeamSessionEndpoints<TStart> {
  /** Real-time subscription type, e.g. 'literature-team'. */
  subscriptionType: string;
  start(input: TStart): RequestSpec;
  /** Reads the session id (and the state, when the reply carries it) from the start reply. */
  readStart(reply: unknown): { sessionId: string; snapshot?: SessionSnapshot } | undefined;
  status(sessionId: string): string;
  readStatus(reply: unknown): SessionSnapshot | undefined;
  /** Optional incremental log call; `after` is the number of lines already known. */
  logs?(sessionId: string, after: number): string;
  readLogs?(reply: unknown, after: number): LogLine[] | undefined;
  feedback(sessionId: string, feedback: string, checkpoint: number | null): RequestSpec;
  readFeedback?(reply: unknown): SessionSnapshot | undefined;
  /** Optional: stops the session on the server when the screen resets a running one. */
  reset?(sessionId: string): RequestSpec;
}

/** What the generic start call takes besides the team id. */
export type GenericStartInput = Omit<StartSessionRequest, 'teamId'>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function readActionReply(reply: unknown): SessionSnapshot | undefined {
  if (!isObject(reply) || !isObject(reply.session)) return undefined;
  return snapshotOfSession((reply as SessionActionReply).session);
}

/** The runtime's generic session endpoints for a team (common/agents.ts). */
export function genericSessionEndpoints(teamId: string): TeamSessionEndpoints<GenericStartInput> {
  const base = '/api/agents/sessions';
  return {
    subscriptionType: subscriptionTypeOf(teamId),
    start: (input) => ({ path: base, body: { ...input, teamId } }),
    readStart: (reply) => {
      if (!isObject(reply) || typeof reply.sessionId !== 'string') return undefined;
      return { sessionId: reply.sessionId, snapshot: readActionReply(reply) };
    },
    status: (id) => `${base}/${encodeURIComponent(id)}`,
    readStatus: (reply) => {
      if (!isObject(reply) || !isObject(reply.session)) return undefined;
      const r = reply as SessionStatusReply;
      return snapshotOfSession(r.session, Array.isArray(r.logs) ? r.logs : undefined);
    },
    logs: (id, after) => `${base}/${encodeURIComponent(id)}/logs?after=${after}`,
    readLogs: (reply, after) => {
      if (!isObject(reply)) return undefined;
      const r = reply as LogsReply;
      if (Array.isArray(r.entries)) {
        return r.entries.map((e) => ({ seq: e.seq, message: e.message }));
      }
      if (Array.isArray(r.logs))
        return r.logs.map((message, i) => ({ seq: after + i + 1, message }));
      return undefined;
    },
    feedback: (id, feedback) => ({
      path: `${base}/${encodeURIComponent(id)}/feedback`,
      body: { feedback },
    }),
    readFeedback: readActionReply,
    reset: (id) => ({ path: `${base}/${encodeURIComponent(id)}/reset`, body: {} }),
  };
}

/**
 * A team route's start or feedback reply (`teamStartReplySchema`): the session id and the
 * session as it now stands; undefined when the reply is not of that shape.
 */
export function readTeamStartReply(
  reply: unknown,
): { sessionId: string; snapshot: SessionSnapshot } | undefined {
  const parsed = teamStartReplySchema.safeParse(reply);
  if (!parsed.success) return undefined;
  return { sessionId: parsed.data.sessionId, snapshot: snapshotOfSession(parsed.data.session) };
}

/**
 * A team's status reply checked by the team's own schema, read as the session with the whole log
 * the reply carries; undefined when the reply does not match.
 */
export function readTeamStatusReply(
  schema: z.ZodType<{ session: AgentSession; logs: string[] }>,
  reply: unknown,
): SessionSnapshot | undefined {
  const parsed = schema.safeParse(reply);
  return parsed.success ? snapshotOfSession(parsed.data.session, parsed.data.logs) : undefined;
}
