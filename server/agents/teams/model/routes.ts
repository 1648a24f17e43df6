import { z } from 'zod';
import type { AgentSession } from '../../../../common/agents';
import {
  CUSTOM_MODEL,
  developModelRequestSchema,
  DEFAULT_SIMULATION_PERIODS,
  MODEL_COMPLETED_PHASE,
  MODEL_TEAM_BASE,
  MODEL_TEAM_ID,
  modelExportFileName,
  modelExportQuerySchema,
  modelExportReplySchema,
  modelFeedbackRequestSchema,
  modelKindSchema,
  modelPhases,
  modelStatusReplySchema,
  modelTypeSchema,
  modelVariablesReplySchema,
  type ModelStatusReply,
} from '../../../../common/teams/model';
import {
  readPhaseResults,
  teamLogsReplySchema,
  teamStartReplySchema,
} from '../../../../common/teams/shared';
import { ModImportError } from '../../../engines/models/errors';
import { canonicalModel } from '../../../engines/models/library';
import type { ModImport } from '../../../engines/models/mod-import';
import type { modelEngineService } from '../../../engines/models/service';
import type { profilingService } from '../../../engines/profiling/service';
import { AppError, conflict, notFound } from '../../../platform/errors';
import {
  registerSessionReadRoutes,
  startReply,
  teamActor,
  teamSession,
  type Api,
  type TeamRouteKit,
} from '../../kit';
import { sessionMarkdown } from './markdown';
import { defaultCustomFocus, importSessionModFile } from './session-model';
import { sessionModFile } from './session-mod-file';
import { computeTargetData } from './target-data';

/**
 * The Model team's routes under /api/agents/model-team: develop, variables, status, logs,
 * feedback and export, thin adapters over the session service. A custom session's .mod file is
 * imported at the start, so a file the engine cannot read is refused at once (422 naming the
 * line and the construct) rather than at the first phase.
 */

/** Imports a .mod file for the develop route: a refusal is a 422 with its line and construct. */
function importForStart(modFile: string, modFileName: string | undefined): ModImport {
  try {
    return importSessionModFile({
      modelType: CUSTOM_MODEL,
      modFile,
      ...(modFileName ? { modFileName } : {}),
    });
  } catch (err) {
    if (err instanceof ModImportError) {
      throw new AppError(
        'unprocessable',
        `The .mod file cannot be imported: ${err.message}`,
        `${err.message} (construct: ${err.construct}, line ${err.line})`,
      );
    }
    throw err;
  }
}

type ModelKit = TeamRouteKit<{
  engine: typeof modelEngineService;
  profiling: typeof profilingService;
}>;

const idParams = z.object({ id: z.string() });
const typeParams = z.object({
  type: z.enum(modelTypeSchema.options, {
    message: `type must be one of: ${modelTypeSchema.options.join(', ')}`,
  }),
});

/** The session's results under the names the status reply gives them (null until a phase ran). */
function resultsOf(session: AgentSession) {
  const results = readPhaseResults(modelPhases, session.results);
  return {
    theoryFramework: results.theory ?? null,
    mathematicalModel: results.model ?? null,
    calibrationResults: results.calibration ?? null,
    completed: results.complete ?? null,
  };
}

function statusReply(session: AgentSession, logs: string[]): ModelStatusReply {
  const type = modelKindSchema.safeParse(session.input.modelType);
  const periods = session.input.periods;
  return {
    success: true,
    sessionId: session.sessionId,
    status: session.status,
    // A completed session reports the Completed phase, whatever the runtime's count says.
    phase:
      session.status === 'completed'
        ? MODEL_COMPLETED_PHASE
        : Math.min(session.phase, MODEL_COMPLETED_PHASE),
    checkpoint: session.checkpoint,
    checkpointData: session.checkpointData,
    logs,
    error: session.error,
    modelType: type.success ? type.data : null,
    focus: typeof session.input.focus === 'string' ? session.input.focus : '',
    periods: typeof periods === 'number' ? periods : DEFAULT_SIMULATION_PERIODS,
    ...resultsOf(session),
    session,
  };
}

export const modelTeamRoutes = {
  prefix: MODEL_TEAM_BASE,
  register(app: Api, kit: ModelKit) {
    const user = { access: 'user' as const };

    app.post(
      '/develop',
      {
        config: user,
        schema: { body: developModelRequestSchema, response: { 201: teamStartReplySchema } },
      },
      async (request, reply) => {
        const actor = teamActor(request);
        const body = request.body;
        const imported =
          body.modelType === CUSTOM_MODEL
            ? importForStart(body.modFile ?? '', body.modFileName)
            : null;
        const starting =
          body.modelType === CUSTOM_MODEL ? imported?.description : canonicalModel(body.modelType);
        if (body.targetData && starting) {
          // Checked at once, so the researcher learns of a wrong dataset, column or variable
          // now rather than at the calibration phase (which checks again).
          await computeTargetData(
            {
              workspace: kit.workspaceFor(actor.id, body.projectId ?? null),
              profiling: kit.services.profiling,
            },
            body.targetData,
            starting,
          );
        }
        // An imported file's stoch_simul options count unless the request sets them.
        const irfPeriods = body.irfPeriods ?? imported?.runOptions.irfPeriods;
        const session = await kit.sessions.start(actor, {
          teamId: MODEL_TEAM_ID,
          input: {
            modelType: body.modelType,
            focus: body.focus || defaultCustomFocus(body.modFileName),
            periods: imported?.runOptions.periods ?? body.periods,
            ...(body.targetData ? { targetData: body.targetData } : {}),
            ...(imported ? { modFile: body.modFile } : {}),
            ...(imported && body.modFileName ? { modFileName: body.modFileName } : {}),
          },
          configuration: irfPeriods ? { irfPeriods } : {},
          ...(body.projectId ? { projectId: body.projectId } : {}),
        });
        return reply.code(201).send(startReply(session));
      },
    );

    app.get(
      '/variables/:type',
      {
        config: user,
        schema: { params: typeParams, response: { 200: modelVariablesReplySchema } },
      },
      async (request) => {
        const model = canonicalModel(request.params.type);
        return {
          success: true as const,
          modelType: request.params.type,
          variables: model.endogenous.map((v) => ({ name: v.name, label: v.label })),
        };
      },
    );

    registerSessionReadRoutes(app, kit.sessions, {
      teamId: MODEL_TEAM_ID,
      statusSchema: modelStatusReplySchema,
      statusReply,
      logsSchema: teamLogsReplySchema,
    });

    app.post(
      '/feedback',
      {
        config: user,
        schema: { body: modelFeedbackRequestSchema, response: { 200: teamStartReplySchema } },
      },
      async (request) => {
        const actor = teamActor(request);
        const { sessionId, feedback, checkpoint } = request.body;
        const current = await teamSession(kit.sessions, actor, sessionId, MODEL_TEAM_ID);
        if (
          checkpoint !== undefined &&
          current.status === 'waiting_for_input' &&
          current.checkpoint !== checkpoint
        ) {
          throw conflict(
            `The session waits at checkpoint ${current.checkpoint}, not ${checkpoint}`,
          );
        }
        return startReply(await kit.sessions.feedback(actor, sessionId, feedback));
      },
    );

    app.get(
      '/export/:id',
      {
        config: user,
        schema: {
          params: idParams,
          querystring: modelExportQuerySchema,
          response: { 200: modelExportReplySchema },
        },
      },
      async (request) => {
        const actor = teamActor(request);
        const session = await teamSession(kit.sessions, actor, request.params.id, MODEL_TEAM_ID);
        const results = resultsOf(session);
        const { format } = request.query;
        const type = modelKindSchema.safeParse(session.input.modelType);
        if (!type.success) throw notFound('Session');
        let content: string;
        if (format === 'mod') {
          if (!results.mathematicalModel) {
            throw conflict(
              'There is no model to export yet: wait for the Mathematical Model phase to finish',
            );
          }
          content = sessionModFile(results.mathematicalModel, results.calibrationResults);
        } else if (format === 'json') {
          content = JSON.stringify(
            {
              modelType: type.data,
              focus: session.input.focus,
              periods: session.input.periods,
              status: session.status,
              theoryFramework: results.theoryFramework,
              mathematicalModel: results.mathematicalModel,
              calibrationResults: results.calibrationResults,
            },
            null,
            2,
          );
        } else {
          content = sessionMarkdown({
            theory: results.theoryFramework,
            model: results.mathematicalModel,
            calibration: results.calibrationResults,
          });
        }
        return {
          success: true as const,
          format,
          fileName: modelExportFileName(type.data, format),
          content,
        };
      },
    );
  },
};
