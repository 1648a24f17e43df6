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
 * routes (literature: /api/literature-team/..., data: /api/agents/data-team/...); the defaults
 * are the runtime's generic session endpoints (/api/agents/sessions/...).
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

/**
 * The endpoints of a team whose routes follow the common shape under `base`: `start` builds the
 * start call; `GET {base}/status/{id}` carries the whole log (so there is no logs call) and is
 * read by the team's `statusSchema`; start and feedback answer `teamStartReplySchema`; reset is
 * the runtime's. With `feedback`, feedback goes to `POST {base}/feedback` as
 * `{sessionId, feedback}`, plus the checkpoint waited at for 'with-checkpoint'; without it (a team
 * without checkpoints) the generic call stays.
 */
export function teamRouteEndpoints<TStart>(spec: {
  teamId: string;
  base: string;
  start(input: TStart): RequestSpec;
  statusSchema: z.ZodType<{ session: AgentSession; logs: string[] }>;
  feedback?: 'plain' | 'with-checkpoint';
}): Partial<TeamSessionEndpoints<TStart>> {
  const { base, statusSchema, feedback } = spec;
  return {
    start: spec.start,
    readStart: readTeamStartReply,
    status: (id) => `${base}/status/${encodeURIComponent(id)}`,
    readStatus: (reply) => readTeamStatusReply(statusSchema, reply),
    logs: undefined,
    readLogs: undefined,
    ...(feedback
      ? {
          feedback: (sessionId: string, text: string, checkpoint: number | null) => ({
            path: `${base}/feedback`,
            body: {
              sessionId,
              feedback: text,
              ...(feedback === 'with-checkpoint' && checkpoint !== null ? { checkpoint } : {}),
            },
          }),
          readFeedback: (reply: unknown) => readTeamStartReply(reply)?.snapshot,
        }
      : {}),
    reset: genericSessionEndpoints(spec.teamId).reset,
  };
}
