import type { AgentSession } from '../../../../common/agents';
import {
  LITERATURE_TEAM_ID,
  literatureFeedbackReplySchema,
  literatureOutputsOf,
  literaturePhases,
  literatureSessionParamsSchema,
  literatureStatusReplySchema,
  startLiteratureReplySchema,
  startLiteratureRequestSchema,
  type LibraryWork,
  type LiteratureOutputs,
  type StartLiteratureRequest,
} from '../../../../common/teams/literature';
import {
  readPhaseResults,
  teamFeedbackRequestSchema,
  teamLogsReplySchema,
} from '../../../../common/teams/shared';
import {
  allLogLines,
  startReply,
  teamActor,
  teamSession,
  type Api,
  type SessionService,
} from '../../kit';
import { importLibrary, type LibraryFileReport } from '../../../sources/library';
import { libraryWorkOf } from './papers';
import type { LiteratureServices } from './sources';

/**
 * The team's calls under /api/literature-team (start, logs, feedback, status): thin adapters
 * over the session service (owner checks inside), shaping replies with the fields the screen
 * reads. A session of another team is answered like a missing one (404).
 */

export interface LiteratureRouteKit {
  sessions: SessionService;
  services: LiteratureServices;
  modelAvailability(userId: string): Promise<{ configured: boolean; hint?: string }>;
}

/** The latest outputs of a session, each read from its phase result by its schema. */
function outputsOf(session: AgentSession): LiteratureOutputs {
  return literatureOutputsOf(readPhaseResults(literaturePhases, session.results));
}

async function importUploads(
  files: NonNullable<StartLiteratureRequest['libraryFiles']>,
  services: LiteratureServices,
): Promise<{ works: LibraryWork[]; reports: LibraryFileReport[] }> {
  const decoded = files.map((f) => ({
    name: f.name,
    bytes: new Uint8Array(Buffer.from(f.contentBase64, 'base64')),
  }));
  const imported = await importLibrary(decoded, {
    crossref: services.crossref,
    openalex: services.openalex,
  });
  return { works: imported.works.map(libraryWorkOf), reports: imported.files };
}

export function registerLiteratureRoutes(app: Api, kit: LiteratureRouteKit): void {
  const user = { access: 'user' as const };

  app.post(
    '/start',
    {
      config: user,
      schema: { body: startLiteratureRequestSchema, response: { 201: startLiteratureReplySchema } },
    },
    async (request, reply) => {
      const actor = teamActor(request);
      const body = request.body;
      let library: LibraryWork[] = [];
      let reports: LibraryFileReport[] | undefined;
      // Reading uploads costs source calls: only when a session can start at all.
      if (body.libraryFiles?.length && (await kit.modelAvailability(actor.id)).configured) {
        const imported = await importUploads(body.libraryFiles, kit.services);
        library = imported.works;
        reports = imported.reports;
      }
      const session = await kit.sessions.start(actor, {
        teamId: LITERATURE_TEAM_ID,
        input: { researchQuestion: body.researchQuestion },
        configuration: {
          workflow: body.workflow ?? 'basic_hitl',
          ...(body.topN ? { topN: body.topN } : {}),
          ...(body.sources ? { sources: body.sources } : {}),
          ...(body.fromYear ? { fromYear: body.fromYear } : {}),
          ...(body.toYear ? { toYear: body.toYear } : {}),
          libraryDocumentIds: body.libraryDocumentIds ?? [],
          library,
        },
        ...(body.projectId ? { projectId: body.projectId } : {}),
      });
      return reply.code(201).send({
        ...startReply(session),
        error: session.error,
        ...(reports
          ? {
              library: reports.map((r) => ({
                name: r.name,
                works: r.works,
                skipped: r.skipped.length,
                ...(r.matchedBy ? { matchedBy: r.matchedBy } : {}),
                ...(r.error ? { error: r.error } : {}),
              })),
            }
          : {}),
      });
    },
  );

  app.get(
    '/logs/:sessionId',
    {
      config: user,
      schema: {
        params: literatureSessionParamsSchema,
        response: { 200: teamLogsReplySchema },
      },
    },
    async (request) => {
      const actor = teamActor(request);
      const { sessionId } = await teamSession(
        kit.sessions,
        actor,
        request.params.sessionId,
        LITERATURE_TEAM_ID,
      );
      return {
        success: true as const,
        sessionId,
        logs: await allLogLines(kit.sessions, actor, sessionId),
      };
    },
  );

  app.post(
    '/feedback',
    {
      config: user,
      schema: {
        body: teamFeedbackRequestSchema,
        response: { 200: literatureFeedbackReplySchema },
      },
    },
    async (request) => {
      const actor = teamActor(request);
      const session = await kit.sessions.feedback(
        actor,
        request.body.sessionId,
        request.body.feedback,
      );
      return { ...startReply(session), error: session.error, ...outputsOf(session) };
    },
  );

  app.get(
    '/status/:sessionId',
    {
      config: user,
      schema: {
        params: literatureSessionParamsSchema,
        response: { 200: literatureStatusReplySchema },
      },
    },
    async (request) => {
      const actor = teamActor(request);
      const { sessionId } = request.params;
      const session = await teamSession(kit.sessions, actor, sessionId, LITERATURE_TEAM_ID);
      return {
        success: true as const,
        sessionId,
        status: session.status,
        phase: session.phase,
        checkpoint: session.checkpoint,
        checkpointData: session.checkpointData,
        logs: await allLogLines(kit.sessions, actor, sessionId),
        error: session.error,
        updatedAt: session.updatedAt,
        ...outputsOf(session),
      };
    },
  );
}
