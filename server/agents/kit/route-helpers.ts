import type { FastifyRequest } from 'fastify';
import type { AgentSession } from '../../../common/agents';
import type { TeamStartReply } from '../../../common/teams/shared';
import { currentUser } from '../../platform/access';
import { notFound } from '../../platform/errors';
import type { SessionActor, SessionService } from '../runtime/types';

/** The signed-in caller of a team route, as the session service's actor. */
export function teamActor(request: FastifyRequest): SessionActor {
  const user = currentUser(request);
  return { id: user.id, role: user.role };
}

/**
 * A session of this team that the actor may see (owner or admin). Another team's session is
 * answered like a missing one (404), so a team's routes never reveal or drive other teams' runs.
 */
export async function teamSession(
  sessions: SessionService,
  actor: SessionActor,
  sessionId: string,
  teamId: string,
): Promise<AgentSession> {
  const session = await sessions.get(actor, sessionId);
  if (session.teamId !== teamId) throw notFound('Session');
  return session;
}

/** Every log line of a session, read page by page (the spec's status and logs calls). */
export async function allLogLines(
  sessions: SessionService,
  actor: SessionActor,
  sessionId: string,
): Promise<string[]> {
  const lines: string[] = [];
  let after = 0;
  for (;;) {
    const page = await sessions.logs(actor, sessionId, { after });
    lines.push(...page.logs);
    if (!page.hasMore || page.entries.length === 0) return lines;
    after = page.entries[page.entries.length - 1]!.seq;
  }
}

/**
 * What a team's start and feedback calls answer (`teamStartReplySchema`): the session as it now
 * stands. A team with more fields spreads this and adds them.
 */
export function startReply(session: AgentSession): TeamStartReply {
  return {
    success: true,
    sessionId: session.sessionId,
    status: session.status,
    phase: session.phase,
    session,
  };
}
