import { z } from 'zod';
import type { AgentSession } from '../../../common/agents';
import type { Api } from '../../platform/api';
import type { SessionService } from '../runtime/types';
import { allLogLines, teamActor, teamSession } from './route-helpers';

const idParams = z.object({ id: z.string() });

/** The reply of a team's logs call: the session id and every log line. */
interface LogsReply {
  success: true;
  sessionId: string;
  logs: string[];
}

/**
 * A team's spec read calls: `GET /status/{id}` (the session as the team shows it, with every log
 * line) and, when the team has one, `GET /logs/{id}`. The session must be this team's and the
 * caller its owner or an administrator (404 otherwise).
 */
export function registerSessionReadRoutes<Status extends z.ZodType>(
  app: Api,
  sessions: SessionService,
  spec: {
    teamId: string;
    statusSchema: Status;
    statusReply(session: AgentSession, logs: string[]): z.input<Status>;
    logsSchema?: z.ZodType<LogsReply>;
  },
): void {
  const user = { access: 'user' as const };
  // Widened for Fastify's reply typing; statusReply's type already ties the reply to the schema,
  // and the schema still checks every reply at run time.
  const statusSchema: z.ZodType = spec.statusSchema;
  app.get(
    '/status/:id',
    { config: user, schema: { params: idParams, response: { 200: statusSchema } } },
    async (request) => {
      const actor = teamActor(request);
      const session = await teamSession(sessions, actor, request.params.id, spec.teamId);
      return spec.statusReply(session, await allLogLines(sessions, actor, session.sessionId));
    },
  );
  if (!spec.logsSchema) return;
  app.get(
    '/logs/:id',
    { config: user, schema: { params: idParams, response: { 200: spec.logsSchema } } },
    async (request): Promise<LogsReply> => {
      const actor = teamActor(request);
      const session = await teamSession(sessions, actor, request.params.id, spec.teamId);
      return {
        success: true,
        sessionId: session.sessionId,
        logs: await allLogLines(sessions, actor, session.sessionId),
      };
    },
  );
}
