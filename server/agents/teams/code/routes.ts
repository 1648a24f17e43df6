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
  executeCodeReplySchema,
  executeCodeRequestSchema,
  exportQuerySchema,
  exportReplySchema,
  packageFileName,
  type CodeResults,
  type CodeStatusReply,
} from '../../../../common/teams/code';
import { readPhaseResults, teamStartReplySchema } from '../../../../common/teams/shared';
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
import { packageFiles, zipFiles } from './package';

/**
 * The Code team's routes under /api/agents/code-team: develop, status, execute and export, thin
 * adapters over the session service and the sandbox.
 */

type CodeKit = TeamRouteKit<{ sandbox: typeof sandboxService }>;

const idParams = z.object({ id: z.string() });

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
    const { sandbox } = kit.services;

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
        const session = await kit.sessions.start(actor, {
          teamId: CODE_TEAM_ID,
          input: { requirements: body.requirements },
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
        const { code, language, sessionId } = request.body;
        // Running code acts with the server's resources: accounts with the viewer role only read.
        if (actor.role === 'viewer') {
          throw forbidden('Accounts with the viewer role cannot execute code');
        }
        if (code.trim() === '') throw badRequest(CODE_MESSAGES.noCode);
        if (sessionId) {
          // With a session, only its owner may run code for it (not even an administrator).
          const session = await teamSession(kit.sessions, actor, sessionId, CODE_TEAM_ID);
          if (session.ownerId !== actor.id) throw notFound('Session');
        }
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
        });
        if (result.kind === 'invalid') throw badRequest(result.error ?? CODE_MESSAGES.noCode);
        if (result.kind === 'unavailable' || result.kind === 'sandbox-error') {
          throw new AppError('unavailable', result.error ?? 'Code execution is unavailable');
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
        };
      },
    );

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
        if (!resultsOf(session).generation) {
          throw conflict('There is no code to export yet: wait for Code Generation to finish');
        }
        const path = `${CODE_TEAM_BASE}/export/${session.sessionId}/download`;
        const { token, expiresInSeconds } = await kit.downloadToken(request, path);
        const configuration = codeConfigurationSchema.parse(session.configuration);
        return {
          success: true as const,
          downloadUrl: `${path}?token=${encodeURIComponent(token)}`,
          expiresInSeconds,
          fileName: packageFileName(configuration.language),
        };
      },
    );

    // Opened by the browser with the signed token from /export (single use, short-lived).
    app.get(
      '/export/:id/download',
      {
        config: { access: 'user', allowDownloadToken: true },
        schema: { params: idParams, querystring: z.object({ token: z.string().optional() }) },
      },
      async (request, reply) => {
        const actor = teamActor(request);
        const session = await teamSession(kit.sessions, actor, request.params.id, CODE_TEAM_ID);
        const { generation, review, optimization, tests } = resultsOf(session);
        if (!generation) throw conflict('There is no code to export yet');
        const configuration = codeConfigurationSchema.parse(session.configuration);
        const date = new Date();
        const input = {
          requirements: String(session.input.requirements ?? ''),
          configuration,
          generation,
          review,
          optimization,
          tests,
          date,
        };
        const code = tests?.code_under_test ?? optimization?.optimized_code ?? generation.main_code;
        const deps = tests?.dependencies ?? dependenciesOf(configuration.language, code);
        const zip = await zipFiles(packageFiles(input, deps), date);
        return reply
          .header('Content-Type', 'application/zip')
          .header(
            'Content-Disposition',
            `attachment; filename="${packageFileName(configuration.language, date)}"`,
          )
          .header('Cache-Control', 'no-store')
          .send(zip);
      },
    );
  },
};
