import { z } from 'zod';
import { readPhaseResults, sessionIdField } from '../../../../common/teams/shared';
import {
  IDEATION_TEAM_ID,
  ideationLogsReplySchema,
  ideationPhases,
  saveIdeationReplySchema,
  saveIdeationRequestSchema,
  startIdeationReplySchema,
  startIdeationRequestSchema,
  type IdeationInput,
  type IdeationLogsReply,
  type IdeationMode,
  type SaveIdeationReply,
  type StartIdeationReply,
} from '../../../../common/teams/ideation';
import type { openAlexService } from '../../../sources/openalex-service';
import { badRequest, conflict, notFound } from '../../../platform/errors';
import {
  allLogLines,
  startReply,
  teamActor,
  teamSession,
  type Api,
  type TeamRouteKit,
} from '../../kit';
import { IDEATION_AGENT_IDS } from './definition';

type Kit = TeamRouteKit<{ openalex: typeof openAlexService }>;

const sessionParams = z.object({ sessionId: sessionIdField });

/**
 * The team's calls under /api/agents/ideation-team, thin adapters over the session service:
 * start (answers at once with the session; the legacy client reads sessionId, questions and
 * logs), the log the screen polls (with the session's state and the structured results so far),
 * and saving the final questions into a project.
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
      const body: StartIdeationReply = {
        ...startReply(session),
        questions: [],
        logs: await allLogLines(kit.sessions, actor, session.sessionId),
      };
      return reply.code(201).send(body);
    },
  );

  app.get(
    '/logs/:sessionId',
    {
      config: { access: 'user' },
      schema: { params: sessionParams, response: { 200: ideationLogsReplySchema } },
    },
    async (request): Promise<IdeationLogsReply> => {
      const actor = teamActor(request);
      const session = await teamSession(
        kit.sessions,
        actor,
        request.params.sessionId,
        IDEATION_TEAM_ID,
      );
      const results = readPhaseResults(ideationPhases, session.results);
      const mode: IdeationMode = session.input.mode === 'automatic' ? 'automatic' : 'human';
      const topics = results.trends?.topics ?? [];
      return {
        success: true,
        sessionId: session.sessionId,
        mode,
        status: session.status,
        phase: session.phase,
        error: session.error,
        logs: await allLogLines(kit.sessions, actor, session.sessionId),
        topics: topics.length > 0 ? topics : null,
        grounding: results.contextualize?.questions ?? null,
        finalQuestions: results.finalize?.questions ?? null,
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
    async (request): Promise<SaveIdeationReply> => {
      const { sessionId, projectId, questions } = request.body;
      const actor = teamActor(request);
      const session = await teamSession(kit.sessions, actor, sessionId, IDEATION_TEAM_ID);
      const final = readPhaseResults(ideationPhases, session.results).finalize;
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
        success: true,
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
