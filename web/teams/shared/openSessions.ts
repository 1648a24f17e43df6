import { z } from 'zod';
import { sessionListReplySchema, type AgentSession } from '../../../common/agents';
import { isFailure } from '../../api/client';
import type { OpenSession } from './teamScope';

/** The part of the HTTP client this module uses (the session hook's, so tests can fake it). */
interface HttpGet {
  get(path: string, signal?: AbortSignal): Promise<unknown>;
}

/** How many open sessions a list shows (the server's limit per user is smaller). */
const OPEN_SESSIONS_SHOWN = 20;

function openSessionOf(s: AgentSession): OpenSession {
  return {
    sessionId: s.sessionId,
    teamId: s.teamId,
    status: s.status,
    checkpoint: s.checkpoint,
    phaseName: s.phaseName,
    createdAt: s.createdAt,
  };
}

/**
 * The user's open sessions (running or waiting at a checkpoint), of one team or of all, newest
 * first, from GET /api/agents/sessions (one call per status). A call that fails counts as none:
 * the list only helps the user, it never blocks a start.
 */
export async function listOpenSessions(http: HttpGet, teamId?: string): Promise<OpenSession[]> {
  const statuses = ['waiting_for_input', 'processing'] as const;
  const replies = await Promise.all(
    statuses.map((status) => {
      const query = new URLSearchParams({ status, limit: String(OPEN_SESSIONS_SHOWN) });
      if (teamId) query.set('teamId', teamId);
      return http.get(`/api/agents/sessions?${query.toString()}`);
    }),
  );
  // Keyed by id: a session that changed status between the two calls is listed once.
  const sessions = new Map<string, AgentSession>();
  for (const reply of replies) {
    if (isFailure(reply)) continue;
    const parsed = sessionListReplySchema.safeParse(reply);
    if (parsed.success) for (const s of parsed.data.sessions) sessions.set(s.sessionId, s);
  }
  return [...sessions.values()]
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .map(openSessionOf);
}

/** True for the server's refusal of a start at the per-user session limit. */
export function isSessionLimitFailure(reply: { status?: number; message?: string }): boolean {
  return reply.status === 409 && /active agent sessions/i.test(reply.message ?? '');
}

const sessionFactsSchema = z.object({
  ownerId: z.string().optional(),
  projectId: z.string().nullable().optional(),
});

/**
 * Who started the session and its project, read from the record a team's status call returned
 * (the runtime's session, or a team reply that carries the same fields); empty when it has none.
 */
export function sessionFacts(session: unknown): { ownerId?: string; projectId?: string | null } {
  const parsed = sessionFactsSchema.safeParse(session);
  if (!parsed.success) return {};
  const { ownerId, projectId } = parsed.data;
  return {
    ...(ownerId !== undefined ? { ownerId } : {}),
    ...(projectId !== undefined ? { projectId } : {}),
  };
}

/** The start body with the project added, unless the team put one in itself or there is none. */
export function withProject(body: unknown, projectId: string | undefined): unknown {
  if (!projectId || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  if ('projectId' in body) return body;
  return { ...body, projectId };
}
