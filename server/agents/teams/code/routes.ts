import { z } from 'zod';
import type { AgentSession } from '../../../../common/agents';
import {
  CODE_COMPLETED_PHASE,
  CODE_MESSAGES,
  codeConfigurationSchema,
  codeFinalOutputsSchema,
  developReplySchema,
  developRequestSchema,
  executeCodeReplySchema,
  executeCodeRequestSchema,
  exportQuerySchema,
  exportReplySchema,
  generationResultSchema,
  optimizationResultSchema,
  packageFileName,
  reviewResultSchema,
  testResultSchema,
  codeStatusReplySchema,
  CODE_TEAM_BASE,
  DEFAULT_FRAMEWORKS,
  type CodeStatusReply,
} from '../../../../common/teams/code';
import type { sandboxService } from '../../../engines/sandbox';
import { AppError, badRequest, conflict, notFound } from '../../../platform/errors';
import {
  registerSessionReadRoutes,
  teamActor,
  teamSession,
  type Api,
  type TeamRouteKit,
} from '../../kit';
import { dependenciesOf } from './dependencies';
import { packageFiles, zipFiles } from './package';

/**
 * The Code team's spec routes (agent-teams.md §7, base /api/agents/code-team): develop, status,
 * execute and export, thin adapters over the session service and the sandbox.
 */

type CodeKit = TeamRouteKit<{ sandbox: typeof sandboxService }>;

const idParams = z.object({ id: z.string() });

/** More executions than this waiting for a sandbox slot: the caller is asked to come back. */
const MAX_WAITING_EXECUTIONS = 16;

const RESULT_SCHEMAS = {
  generation: generationResultSchema,
  review: reviewResultSchema,
  optimization: optimizationResultSchema,
  tests: testResultSchema,
} as const;

/** The session's results by the spec's phase numbers, each checked against its schema. */
function resultsOf(session: AgentSession): CodeStatusReply['results'] {
  const out: CodeStatusReply['results'] = {};
  for (const r of session.results) {
    const key = r.key as keyof typeof RESULT_SCHEMAS;
    const schema = RESULT_SCHEMAS[key];
    if (!schema) continue;
    const parsed = schema.safeParse(r.result);
    if (!parsed.success) continue;
    if (key === 'generation') out[1] = parsed.data as CodeStatusReply['results'][1];
    if (key === 'review') out[2] = parsed.data as CodeStatusReply['results'][2];
    if (key === 'optimization') out[3] = parsed.data as CodeStatusReply['results'][3];
    if (key === 'tests') out[4] = parsed.data as CodeStatusReply['results'][4];
  }
  return out;
}

function statusReply(session: AgentSession, logs: string[]): CodeStatusReply {
  const configuration = codeConfigurationSchema.safeParse(session.configuration);
  const finalOutputs = codeFinalOutputsSchema.safeParse(session.finalOutputs);
  const requirements = session.input.requirements;
  return {
    success: true,
    sessionId: session.sessionId,
    status: session.status,
    // agent-teams.md §4: process_completed sets phase 5.
    phase: session.status === 'completed' ? CODE_COMPLETED_PHASE : session.phase,
    error: session.error,
    logs,
    requirements: typeof requirements === 'string' ? requirements : '',
    configuration: configuration.success ? configuration.data : codeConfigurationSchema.parse({}),
    results: resultsOf(session),
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
        schema: { body: developRequestSchema, response: { 201: developReplySchema } },
      },
      async (request, reply) => {
        const actor = teamActor(request);
        const body = request.body;
        // Unset choices come from the user's Code Generation settings, then the spec's defaults.
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
          teamId: 'code',
          input: { requirements: body.requirements },
          configuration: {
            language,
            frameworks,
            workflowMode: body.workflowMode ?? settings.codeGeneration.workflowMode,
          },
          ...(body.projectId ? { projectId: body.projectId } : {}),
        });
        return reply.code(201).send({
          success: true as const,
          sessionId: session.sessionId,
          status: session.status,
          phase: session.phase,
          session,
        });
      },
    );

    registerSessionReadRoutes(app, kit.sessions, {
      teamId: 'code',
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
        if (code.trim() === '') throw badRequest(CODE_MESSAGES.noCode);
        if (sessionId) {
          // With a session, only its owner may run code for it (not even an administrator).
          const session = await teamSession(kit.sessions, actor, sessionId, 'code');
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
        const session = await teamSession(kit.sessions, actor, request.params.id, 'code');
        if (!resultsOf(session)[1]) {
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
        const session = await teamSession(kit.sessions, actor, request.params.id, 'code');
        const results = resultsOf(session);
        const generation = results[1];
        if (!generation) throw conflict('There is no code to export yet');
        const configuration = codeConfigurationSchema.parse(session.configuration);
        const date = new Date();
        const input = {
          requirements: String(session.input.requirements ?? ''),
          configuration,
          generation,
          review: results[2],
          optimization: results[3],
          tests: results[4],
          date,
        };
        const code =
          results[4]?.code_under_test ?? results[3]?.optimized_code ?? generation.main_code;
        const deps = results[4]?.dependencies ?? dependenciesOf(configuration.language, code);
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
