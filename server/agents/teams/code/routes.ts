import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AgentSession } from '../../../../common/agents';
import {
  CODE_COMPLETED_PHASE,
  CODE_MESSAGES,
  CODE_TEAM_BASE,
  CODE_TEAM_ID,
  codeConfigurationSchema,
  codeFinalOutputsSchema,
  codePhases,
  codeStatusReplySchema,
  DEFAULT_FRAMEWORKS,
  developRequestSchema,
  codeRuntimesReplySchema,
  executeCodeReplySchema,
  executeCodeRequestSchema,
  exportQuerySchema,
  exportReplySchema,
  exportRequestSchema,
  packageFileName,
  workingFileSchema,
  workingFilesQuerySchema,
  workingFilesReplySchema,
  type CodeResults,
  type CodeStatusReply,
  type WorkingFileRef,
} from '../../../../common/teams/code';
import { readPhaseResults, teamStartReplySchema } from '../../../../common/teams/shared';
import type { profilingService } from '../../../engines/profiling/service';
import type { sandboxService } from '../../../engines/sandbox';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../../platform/errors';
import {
  registerSessionReadRoutes,
  startReply,
  teamActor,
  teamSession,
  type Api,
  type TeamRouteKit,
} from '../../kit';
import { dependenciesOf } from './dependencies';
import type { editorRunsService } from './editor-runs';
import { packageFiles, sessionCode, zipFiles, type PackageInput } from './package';
import { runtimesReply, workingFileCandidates } from './route-data';
import { dataFilesOf, readWorkingFiles, sessionWorkingFiles } from './working-files';

/**
 * The Code team's routes under /api/agents/code-team: develop, status, execute and export, thin
 * adapters over the session service and the sandbox.
 */

type CodeKit = TeamRouteKit<{
  sandbox: typeof sandboxService;
  profiling: typeof profilingService;
  editorRuns: typeof editorRunsService;
}>;

const idParams = z.object({ id: z.string() });

/** The working files a session was started with (its input), as references to read again. */
function sessionFileRefs(session: AgentSession): WorkingFileRef[] {
  const parsed = z.array(workingFileSchema).safeParse(session.input.workingFiles ?? []);
  return parsed.success ? parsed.data.map(({ kind, id }) => ({ kind, id }) as WorkingFileRef) : [];
}

/** More executions than this waiting for a sandbox slot: the caller is asked to come back. */
const MAX_WAITING_EXECUTIONS = 16;

/** The session's results by phase key, each checked against its schema. */
function resultsOf(session: AgentSession): CodeResults {
  return readPhaseResults(codePhases, session.results);
}

/** The status reply's results: each phase's result under its number in the phase table. */
function resultsByNumber(results: CodeResults): CodeStatusReply['results'] {
  return codeStatusReplySchema.shape.results.parse(
    Object.fromEntries(codePhases.rows.map((row) => [row.number, results[row.key]])),
  );
}

function statusReply(session: AgentSession, logs: string[]): CodeStatusReply {
  const configuration = codeConfigurationSchema.safeParse(session.configuration);
  const finalOutputs = codeFinalOutputsSchema.safeParse(session.finalOutputs);
  const requirements = session.input.requirements;
  return {
    success: true,
    sessionId: session.sessionId,
    status: session.status,
    // A completed session reports the stepper's Completed step, one past the last phase.
    phase: session.status === 'completed' ? CODE_COMPLETED_PHASE : session.phase,
    error: session.error,
    logs,
    requirements: typeof requirements === 'string' ? requirements : '',
    configuration: configuration.success ? configuration.data : codeConfigurationSchema.parse({}),
    results: resultsByNumber(resultsOf(session)),
    finalOutputs: finalOutputs.success ? finalOutputs.data : null,
    session,
  };
}

export const codeTeamRoutes = {
  prefix: CODE_TEAM_BASE,
  register(app: Api, kit: CodeKit) {
    const { sandbox, editorRuns } = kit.services;

    app.post(
      '/develop',
      {
        config: { access: 'user' },
        schema: { body: developRequestSchema, response: { 201: teamStartReplySchema } },
      },
      async (request, reply) => {
        const actor = teamActor(request);
        const body = request.body;
        // Unset choices come from the user's Code Generation settings, then the team's defaults.
        const settings = await kit.workspaceFor(actor.id, null).settings.get();
        const language = body.language ?? settings.codeGeneration.defaultLanguage;
        const frameworks =
          body.frameworks ??
          (settings.codeGeneration.frameworks.length > 0
            ? settings.codeGeneration.frameworks
            : language === 'python'
              ? [...DEFAULT_FRAMEWORKS]
              : []);
        // Every file is read now with the caller's rights: one they cannot read is a 404, one too
        // large a 413, before a session exists.
        const files = body.workingFiles?.length
          ? await readWorkingFiles(body.workingFiles, {
              workspace: kit.workspaceFor(actor.id, body.projectId ?? null),
              profiling: kit.services.profiling,
            })
          : [];
        const session = await kit.sessions.start(actor, {
          teamId: CODE_TEAM_ID,
          input: {
            requirements: body.requirements,
            ...(files.length > 0 ? { workingFiles: sessionWorkingFiles(files) } : {}),
          },
          configuration: {
            language,
            frameworks,
            workflowMode: body.workflowMode ?? settings.codeGeneration.workflowMode,
          },
          ...(body.projectId ? { projectId: body.projectId } : {}),
        });
        return reply.code(201).send(startReply(session));
      },
    );

    registerSessionReadRoutes(app, kit.sessions, {
      teamId: CODE_TEAM_ID,
      statusSchema: codeStatusReplySchema,
      statusReply,
    });

    app.post(
      '/execute',
      {
        config: { access: 'user' },
        schema: { body: executeCodeRequestSchema, response: { 200: executeCodeReplySchema } },
      },
      async (request) => {
        const actor = teamActor(request);
        const { code, language, sessionId, workingFiles } = request.body;
        // Running code acts with the server's resources: accounts with the viewer role only read.
        if (actor.role === 'viewer') {
          throw forbidden('Accounts with the viewer role cannot execute code');
        }
        if (code.trim() === '') throw badRequest(CODE_MESSAGES.noCode);
        let session: AgentSession | null = null;
        if (sessionId) {
          // With a session, only its owner may run code for it (not even an administrator).
          session = await teamSession(kit.sessions, actor, sessionId, CODE_TEAM_ID);
          if (session.ownerId !== actor.id) throw notFound('Session');
        }
        // The files asked for, else the session's: the editor's run sees what the session saw.
        const refs = workingFiles ?? (session ? sessionFileRefs(session) : []);
        const files =
          refs.length > 0
            ? await readWorkingFiles(refs, {
                workspace: kit.workspaceFor(actor.id, session?.projectId ?? null),
                profiling: kit.services.profiling,
              })
            : [];
        if (sandbox.pending() >= MAX_WAITING_EXECUTIONS) {
          throw new AppError(
            'too_many_requests',
            'The code runner is busy; try again in a few seconds',
            undefined,
            5,
          );
        }
        const settings = await kit.workspaceFor(actor.id, null).settings.get();
        const result = await sandbox.run({
          language,
          code,
          timeLimitSeconds: settings.runtime.codeExecutionTimeLimitSeconds,
          dataFiles: dataFilesOf(files),
        });
        if (result.kind === 'invalid') throw badRequest(result.error ?? CODE_MESSAGES.noCode);
        if (result.kind === 'unavailable' || result.kind === 'sandbox-error') {
          throw new AppError('unavailable', result.error ?? 'Code execution is unavailable');
        }
        if (session) {
          // Kept for Download Package: the last run, with the code that produced it.
          await editorRuns.saveRun(session.sessionId, {
            code,
            language,
            ranAt: new Date().toISOString(),
            output: result.output,
            error: result.error ?? null,
            kind: result.kind,
            exitCode: result.exitCode,
            durationMs: result.durationMs,
            figures: result.figures,
            workingFiles: files.map((f) => f.placed.path),
          });
        }
        return {
          success: true as const,
          output: result.output,
          ...(result.error ? { error: result.error } : {}),
          kind: result.kind,
          exitCode: result.exitCode,
          figures: result.figures,
          figuresSkipped: result.figuresSkipped,
          durationMs: result.durationMs,
          timeLimitSeconds: result.limits.timeLimitSeconds,
          workingFiles: files.map((f) => f.placed),
        };
      },
    );

    /** A short-lived single-use link to the package (`editor`: with the caller's editor code). */
    async function exportLink(request: FastifyRequest, session: AgentSession, editor: boolean) {
      if (!resultsOf(session).generation) {
        throw conflict('There is no code to export yet: wait for Code Generation to finish');
      }
      const path = `${CODE_TEAM_BASE}/export/${session.sessionId}/download${editor ? '/editor' : ''}`;
      const { token, expiresInSeconds } = await kit.downloadToken(request, path);
      const configuration = codeConfigurationSchema.parse(session.configuration);
      return {
        success: true as const,
        downloadUrl: `${path}?token=${encodeURIComponent(token)}`,
        expiresInSeconds,
        fileName: packageFileName(configuration.language),
      };
    }

    app.get(
      '/export/:id',
      {
        config: { access: 'user' },
        schema: {
          params: idParams,
          querystring: exportQuerySchema,
          response: { 200: exportReplySchema },
        },
      },
      async (request) => {
        const actor = teamActor(request);
        const session = await teamSession(kit.sessions, actor, request.params.id, CODE_TEAM_ID);
        return exportLink(request, session, false);
      },
    );

    // Download Package from the screen: the editor's code as it is now goes into the package.
    app.post(
      '/export/:id',
      {
        config: { access: 'user' },
        schema: {
          params: idParams,
          querystring: exportQuerySchema,
          body: exportRequestSchema,
          response: { 200: exportReplySchema },
        },
      },
      async (request) => {
        const actor = teamActor(request);
        const session = await teamSession(kit.sessions, actor, request.params.id, CODE_TEAM_ID);
        const link = await exportLink(request, session, request.body.code !== undefined);
        if (request.body.code !== undefined) {
          await editorRuns.saveEditorCode(session.sessionId, actor.id, request.body.code);
        }
        return link;
      },
    );

    /** The package of a session: its code (or the caller's editor code) and the editor's last run. */
    async function download(
      request: FastifyRequest,
      reply: FastifyReply,
      sessionId: string,
      editor: boolean,
    ) {
      const actor = teamActor(request);
      const session = await teamSession(kit.sessions, actor, sessionId, CODE_TEAM_ID);
      const { generation, review, optimization, tests } = resultsOf(session);
      if (!generation) throw conflict('There is no code to export yet');
      const configuration = codeConfigurationSchema.parse(session.configuration);
      const date = new Date();
      const editorCode = editor
        ? ((await editorRuns.editorCode(session.sessionId, actor.id)) ?? undefined)
        : undefined;
      const lastRun = (await editorRuns.lastRun(session.sessionId)) ?? undefined;
      const input: PackageInput = {
        requirements: String(session.input.requirements ?? ''),
        configuration,
        generation,
        review,
        optimization,
        tests,
        date,
        ...(editorCode !== undefined ? { editorCode } : {}),
        ...(lastRun ? { lastRun } : {}),
      };
      const code = editorCode ?? sessionCode(input);
      const deps =
        editorCode === undefined && tests
          ? tests.dependencies
          : dependenciesOf(configuration.language, code, tests?.test_code ?? '');
      const zip = await zipFiles(packageFiles(input, deps), date);
      return reply
        .header('Content-Type', 'application/zip')
        .header(
          'Content-Disposition',
          `attachment; filename="${packageFileName(configuration.language, date)}"`,
        )
        .header('Cache-Control', 'no-store')
        .send(zip);
    }

    // Opened by the browser with the signed token from /export (single use, short-lived).
    const downloadOptions = {
      config: { access: 'user' as const, allowDownloadToken: true },
      schema: { params: idParams, querystring: z.object({ token: z.string().optional() }) },
    };
    app.get('/export/:id/download', downloadOptions, (request, reply) =>
      download(request, reply, request.params.id, false),
    );
    app.get('/export/:id/download/editor', downloadOptions, (request, reply) =>
      download(request, reply, request.params.id, true),
    );

    // Which languages can run here: bubblewrap and each runtime, checked on the server.
    app.get(
      '/runtimes',
      { config: { access: 'user' }, schema: { response: { 200: codeRuntimesReplySchema } } },
      async () => runtimesReply(await sandbox.status()),
    );

    // The project's files a program may be given (its datasets with data, its model files).
    app.get(
      '/working-files',
      {
        config: { access: 'user' },
        schema: {
          querystring: workingFilesQuerySchema,
          response: { 200: workingFilesReplySchema },
        },
      },
      async (request) => {
        const actor = teamActor(request);
        const workspace = kit.workspaceFor(actor.id, request.query.projectId);
        return {
          success: true as const,
          files: await workingFileCandidates(workspace, kit.services.profiling),
        };
      },
    );
  },
};
