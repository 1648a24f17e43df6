import { z } from 'zod';
import type { AgentSession } from '../../../../common/agents';
import {
  contextualizeResultSchema,
  finalizeResultSchema,
  IDEATION_TEAM_ID,
  ideationLogsReplySchema,
  saveIdeationReplySchema,
  saveIdeationRequestSchema,
  startIdeationReplySchema,
  startIdeationRequestSchema,
  trendsResultSchema,
  type IdeationInput,
  type IdeationMode,
} from '../../../../common/teams/ideation';
import type { openAlexService } from '../../../sources/openalex-service';
import { badRequest, conflict, notFound } from '../../../platform/errors';
import { teamActor, type Api, type TeamRouteKit, teamSession } from '../../kit';

/** The v2 agents the two modes run (their phase plans differ: automatic discovers trends). */
export const IDEATION_AGENT_IDS: Record<IdeationMode, string> = {
  human: 'ideation-human',
  automatic: 'ideation-automatic',
};

type Kit = TeamRouteKit<{ openalex: typeof openAlexService }>;

const sessionParams = z.object({
  sessionId: z.uuid({ message: 'sessionId must be a session id' }),
});

/** A phase's stored result, or null when it has not run (or no longer reads). */
function resultOf<T extends z.ZodType>(
  session: AgentSession,
  key: string,
  schema: T,
): z.output<T> | null {
  const stored = session.results.find((r) => r.key === key);
  if (!stored) return null;
  const parsed = schema.safeParse(stored.result);
  return parsed.success ? parsed.data : null;
}

/**
 * The spec's calls (agent-teams.md §7) as thin adapters over the session service, plus saving
 * the final questions into a project.
 */
export function registerIdeationRoutes(app: Api, kit: Kit): void {
  // '' is the prefix itself (POST /api/agents/ideation-team); '/' would add a trailing slash.
  app.post(
    '',
    {
      config: { access: 'user' },
      schema: { body: startIdeationRequestSchema, response: { 201: startIdeationReplySchema } },
    },
    async (request, reply) => {
      const { idea, mode = 'human', projectId } = request.body;
      const actor = teamActor(request);
      const input: IdeationInput =
        mode === 'human' ? { mode, idea: (idea ?? '').trim() } : { mode: 'automatic' };
      const session = await kit.sessions.start(actor, {
        teamId: IDEATION_TEAM_ID,
        agentId: IDEATION_AGENT_IDS[mode],
        input,
        projectId,
      });
      const page = await kit.sessions.logs(actor, session.sessionId);
      return reply.code(201).send({
        success: true as const,
        sessionId: session.sessionId,
        questions: [],
        logs: page.logs,
      });
    },
  );

  app.get(
    '/logs/:sessionId',
    {
      config: { access: 'user' },
      schema: { params: sessionParams, response: { 200: ideationLogsReplySchema } },
    },
    async (request) => {
      const actor = teamActor(request);
      const session = await teamSession(
        kit.sessions,
        actor,
        request.params.sessionId,
        IDEATION_TEAM_ID,
      );
      const page = await kit.sessions.logs(actor, session.sessionId);
      const trends = resultOf(session, 'trends', trendsResultSchema);
      const mode: IdeationMode = session.input.mode === 'automatic' ? 'automatic' : 'human';
      return {
        success: true as const,
        sessionId: session.sessionId,
        mode,
        status: session.status,
        error: session.error,
        logs: page.logs,
        topics: trends && trends.topics.length > 0 ? trends.topics : null,
        grounding: resultOf(session, 'contextualize', contextualizeResultSchema)?.questions ?? null,
        finalQuestions: resultOf(session, 'finalize', finalizeResultSchema)?.questions ?? null,
        projectId: session.projectId,
      };
    },
  );

  app.post(
    '/save',
    {
      config: { access: 'user' },
      schema: { body: saveIdeationRequestSchema, response: { 200: saveIdeationReplySchema } },
    },
    async (request) => {
      const { sessionId, projectId, questions } = request.body;
      const actor = teamActor(request);
      const session = await teamSession(kit.sessions, actor, sessionId, IDEATION_TEAM_ID);
      const final = resultOf(session, 'finalize', finalizeResultSchema);
      if (session.status !== 'completed' || !final) {
        throw conflict(
          'The questions are not final yet: save them once the Finalizer has finished',
        );
      }
      const finalTexts = final.questions.map((q) => q.question);
      const chosen = questions ?? finalTexts;
      const unknown = chosen.find((q) => !finalTexts.includes(q));
      if (unknown !== undefined) {
        throw badRequest(
          `Only this session's final questions can be saved; "${unknown.slice(0, 120)}" is not one of them`,
        );
      }
      const workspace = kit.workspaceFor(actor.id, projectId);
      const before = await workspace.project();
      if (!before) throw notFound('Project');
      const had = new Set(before.researchQuestions.map((q) => q.trim().toLowerCase()));
      const project = await workspace.appendResearchQuestions(chosen);
      return {
        success: true as const,
        data: {
          projectId: project.id,
          title: project.title,
          researchQuestions: project.researchQuestions,
          added: chosen.filter((q) => !had.has(q.trim().toLowerCase())),
        },
      };
    },
  );
}
