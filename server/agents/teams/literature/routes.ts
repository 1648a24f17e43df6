import type { AgentSession } from '../../../../common/agents';
import {
  completeResultSchema,
  gapsResultSchema,
  LITERATURE_TEAM_ID,
  literatureFeedbackReplySchema,
  literatureFeedbackRequestSchema,
  literatureLogsReplySchema,
  literatureSessionParamsSchema,
  literatureStatusReplySchema,
  reportResultSchema,
  searchResultSchema,
  startLiteratureReplySchema,
  startLiteratureRequestSchema,
  type LibraryWork,
  type StartLiteratureRequest,
} from '../../../../common/teams/literature';
import { teamActor, type Api, type SessionService, allLogLines } from '../../kit';
import { notFound } from '../../../platform/errors';
import { importLibrary, type LibraryFileReport } from '../../../sources/library';
import { libraryWorkOf } from './papers';
import type { LiteratureServices } from './sources';

/**
 * The spec's calls (agent-teams.md §7) under /api/literature-team: thin adapters over the
 * session service (owner checks inside), shaping replies with the fields the screen reads.
 */

export interface LiteratureRouteKit {
  sessions: SessionService;
  services: LiteratureServices;
  modelAvailability(userId: string): Promise<{ configured: boolean; hint?: string }>;
}

/** The latest outputs of a session, each read from its phase result by its schema. */
export function outputsOf(session: AgentSession) {
  const raw = new Map(session.results.map((r) => [r.key, r.result]));
  const search = searchResultSchema.safeParse(raw.get('search'));
  const gaps = gapsResultSchema.safeParse(raw.get('gaps'));
  const report = reportResultSchema.safeParse(raw.get('report'));
  const complete = completeResultSchema.safeParse(raw.get('complete'));
  const source = gaps.success ? gaps.data : search.success ? search.data : undefined;
  return {
    papers: source?.papers ?? [],
    researchGaps: source?.gaps ?? [],
    trends: source?.trends ?? [],
    references: report.success ? report.data.references : gaps.success ? gaps.data.references : [],
    finalReport: complete.success
      ? complete.data.finalReport
      : report.success
        ? report.data.finalReport
        : null,
    verification: report.success ? report.data.verification : null,
    documents: complete.success
      ? {
          report: complete.data.reportDocumentId,
          bibliography: complete.data.bibliographyDocumentId,
        }
      : null,
  };
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
        success: true as const,
        sessionId: session.sessionId,
        status: session.status,
        phase: session.phase,
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
        response: { 200: literatureLogsReplySchema },
      },
    },
    async (request) => {
      const actor = teamActor(request);
      const { sessionId } = request.params;
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
        body: literatureFeedbackRequestSchema,
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
      const out = outputsOf(session);
      return {
        success: true as const,
        sessionId: session.sessionId,
        status: session.status,
        phase: session.phase,
        error: session.error,
        papers: out.papers,
        researchGaps: out.researchGaps,
        trends: out.trends,
        references: out.references,
        finalReport: out.finalReport,
      };
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
      const session = await kit.sessions.get(actor, sessionId);
      // Another team's session is not a literature session: the same 404 as a missing one.
      if (session.teamId !== LITERATURE_TEAM_ID) throw notFound('Session');
      const out = outputsOf(session);
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
        ...out,
      };
    },
  );
}
