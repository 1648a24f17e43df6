import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { AgentSession } from '../../../../common/agents';
import {
  analyzeRequestSchema,
  ANALYSIS_TYPES,
  DATA_COMPLETED_PHASE,
  DATA_PHASE_TABLE,
  DATA_SOURCE_KINDS,
  DATA_TEAM_BASE,
  DATA_TEAM_ID,
  dataStatusReplySchema,
  fetchDatasetRequestSchema,
  uploadConfigSchema,
  type ApiSource,
  type DataInput,
  type DataStatusReply,
} from '../../../../common/teams/data';
import {
  readPhaseResults,
  teamFeedbackRequestSchema,
  teamLogsReplySchema,
  teamStartReplySchema,
  type TeamStartReply,
} from '../../../../common/teams/shared';
import { isDataError } from '../../../engines/profiling/index';
import { badRequest } from '../../../platform/errors';
import { DataSourceError } from '../../../sources/data-source';
import { parseImfId } from '../../../sources/imf';
import { parseKaggleId } from '../../../sources/kaggle';
import { parseWorldBankId } from '../../../sources/worldbank';
import {
  registerSessionReadRoutes,
  startReply,
  teamActor,
  teamSession,
  type Api,
  type SessionActor,
} from '../../kit';
import { readableStoredDataset, registerCatalogDatasetRoutes } from './catalog-source';
import { fredApiKeyFor, kaggleCredentialsFor } from './credentials';
import type { DataKit } from './data-kit';
import { registerExplorerRoutes } from './explorer';
import { keepFilesWithCatalog } from './stored-files';
import { jsonField, receiveUpload, refuseDataFile } from './upload';

/**
 * The Data team's routes under /api/agents/data-team: analyze, fetch-dataset and upload start a
 * session; status, logs and feedback follow it. The Data Explorer's routes live beside them
 * (explorer.ts). What can be refused before a session starts is refused here with a 400 (a bad
 * file, a malformed dataset id, a missing key).
 */

/**
 * The stepper's step: 0 Data Source ... 3 Statistical Analysis while a phase runs or waits;
 * Completed sets DATA_COMPLETED_PHASE.
 */
export function stepOf(session: AgentSession): number {
  if (session.status === 'completed') return DATA_COMPLETED_PHASE;
  return Math.min(DATA_COMPLETED_PHASE - 1, Math.max(0, session.phase - 1));
}

/**
 * What the start and feedback calls answer: the kit's reply (the session as it now stands) with
 * `phase` as the stepper's step, as the status reply gives it.
 */
function sessionReply(session: AgentSession): TeamStartReply {
  return { ...startReply(session), phase: stepOf(session) };
}

/** The session with each phase's result under the names the status reply gives them. */
function statusReply(session: AgentSession, logs: string[]): DataStatusReply {
  const r = readPhaseResults(DATA_PHASE_TABLE, session.results);
  const type = z.enum(ANALYSIS_TYPES).safeParse(session.input.analysisType);
  const kind = z.enum(DATA_SOURCE_KINDS).safeParse(session.input.dataSource);
  return {
    success: true,
    sessionId: session.sessionId,
    status: session.status,
    phase: stepOf(session),
    checkpoint: session.checkpoint,
    checkpointData: session.checkpointData,
    logs,
    error: session.error,
    analysisType: type.success ? type.data : null,
    dataSource: kind.success ? kind.data : null,
    source: r.source ?? null,
    dataset: r.loading ?? null,
    profile: r.profiling?.profile ?? null,
    cleaning: r.profiling?.cleaning ?? null,
    results: r.analysis ?? null,
    session,
  };
}

const FRED_ID = /^[A-Za-z0-9_]{1,50}$/;

/**
 * Refuses at once what would only fail later in the session: a malformed dataset id, an
 * address that is not http(s), a FRED or Kaggle request without credentials.
 */
async function preflight(kit: DataKit, actor: SessionActor, source: ApiSource | 'url', id: string) {
  const fail = (e: unknown): never => {
    if (e instanceof DataSourceError) throw badRequest(e.message);
    throw e;
  };
  try {
    if (source === 'world_bank') parseWorldBankId(id);
    else if (source === 'imf') parseImfId(id);
    else if (source === 'kaggle') {
      parseKaggleId(id);
      const { username, key } = await kaggleCredentialsFor(
        kit.workspaceFor(actor.id, null),
        kit.services.sources,
      );
      if (!username || !key) {
        throw badRequest(
          'Kaggle: a username and API key are needed. Add both under Settings > API keys (create a key at https://www.kaggle.com/settings), or ask the administrator to set KAGGLE_USERNAME and KAGGLE_KEY.',
        );
      }
    } else if (source === 'fred') {
      if (!FRED_ID.test(id.trim())) {
        throw badRequest(
          `FRED: "${id.trim()}" is not a FRED series id (letters, digits and _, e.g. GDP, UNRATE).`,
        );
      }
      if (!(await fredApiKeyFor(kit.workspaceFor(actor.id, null), kit.services.sources))) {
        throw badRequest(
          'FRED: an API key is needed. Add your FRED key under Settings > API keys, or ask the administrator to set FRED_API_KEY.',
        );
      }
    } else {
      let url: URL;
      try {
        url = new URL(id.trim());
      } catch {
        throw badRequest(`"${id.trim()}" is not a web address (it should start with https://).`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw badRequest(`Only http(s) addresses can be fetched, not ${url.protocol}`);
      }
    }
  } catch (e) {
    fail(e);
  }
}

export const dataTeamRoutes = {
  prefix: DATA_TEAM_BASE,
  async register(app: Api, kit: DataKit) {
    const user = { access: 'user' as const };
    const { profiling } = kit.services;
    keepFilesWithCatalog(profiling.files, kit.catalog, app.log);

    const start = async (actor: SessionActor, input: DataInput, projectId: string | undefined) => {
      const session = await kit.sessions.start(actor, {
        teamId: DATA_TEAM_ID,
        input,
        configuration: {},
        ...(projectId ? { projectId } : {}),
      });
      return sessionReply(session);
    };

    app.post(
      '/analyze',
      {
        config: user,
        schema: { body: analyzeRequestSchema, response: { 201: teamStartReplySchema } },
      },
      async (request, reply) => {
        const actor = teamActor(request);
        const body = request.body;
        const id = body.config.datasetId?.trim() ?? '';
        const { missingTokens } = body.config;
        if (body.dataSource === 'catalog') {
          // 404 for a dataset the caller cannot read, 400 for one without stored data.
          const workspace = kit.workspaceFor(actor.id, body.projectId ?? null);
          await readableStoredDataset(workspace, profiling.files, id);
          const input: DataInput = {
            dataSource: 'catalog',
            analysisType: body.analysisType,
            datasetId: id,
          };
          return reply.code(201).send(await start(actor, input, body.projectId));
        }
        const source = body.dataSource === 'url' ? 'url' : body.config.datasetSource!;
        await preflight(kit, actor, source, id);
        const input: DataInput =
          body.dataSource === 'url'
            ? { dataSource: 'url', analysisType: body.analysisType, datasetId: id, missingTokens }
            : {
                dataSource: 'api',
                analysisType: body.analysisType,
                apiSource: body.config.datasetSource,
                datasetId: id,
                missingTokens,
              };
        return reply.code(201).send(await start(actor, input, body.projectId));
      },
    );

    app.post(
      '/fetch-dataset',
      {
        config: user,
        schema: { body: fetchDatasetRequestSchema, response: { 201: teamStartReplySchema } },
      },
      async (request, reply) => {
        const actor = teamActor(request);
        const { source, datasetId, analysisType, projectId, missingTokens } = request.body;
        await preflight(kit, actor, source, datasetId);
        const input: DataInput = {
          dataSource: 'api',
          analysisType,
          apiSource: source,
          datasetId: datasetId.trim(),
          missingTokens,
        };
        return reply.code(201).send(await start(actor, input, projectId));
      },
    );

    registerCatalogDatasetRoutes(app, kit);
    registerSessionReadRoutes(app, kit.sessions, {
      teamId: DATA_TEAM_ID,
      statusSchema: dataStatusReplySchema,
      statusReply,
      logsSchema: teamLogsReplySchema,
    });

    app.post(
      '/feedback',
      {
        config: user,
        schema: { body: teamFeedbackRequestSchema, response: { 200: teamStartReplySchema } },
      },
      async (request) => {
        const actor = teamActor(request);
        const { sessionId, feedback } = request.body;
        await teamSession(kit.sessions, actor, sessionId, DATA_TEAM_ID);
        return sessionReply(await kit.sessions.feedback(actor, sessionId, feedback));
      },
    );

    // Multipart parsing exists only in this scope, so no other route accepts form uploads.
    await app.register(async (scope: Api) => {
      await scope.register(multipart, {
        limits: { fileSize: profiling.uploadLimitBytes, files: 1 },
        throwFileSizeLimit: true,
      });

      scope.post(
        '/upload',
        {
          config: user,
          bodyLimit: profiling.uploadLimitBytes + 64 * 1024,
          schema: { response: { 201: teamStartReplySchema } },
        },
        async (request, reply) => {
          const actor = teamActor(request);
          const { uploadId, dir } = await profiling.files.newStaging();
          const { fields, file, fileName } = await receiveUpload(
            request,
            dir,
            profiling.uploadLimitBytes,
          );
          const config = uploadConfigSchema.safeParse(jsonField(fields, 'config'));
          if (!config.success)
            throw badRequest(`config: ${config.error.issues[0]?.message ?? 'invalid'}`);
          try {
            // By content as well as by name, before any session starts.
            await profiling.engine.check(file, fileName);
          } catch (e) {
            await profiling.files.discardStaging(uploadId);
            if (isDataError(e)) throw refuseDataFile(e);
            throw e;
          }
          const input: DataInput = {
            dataSource: 'upload',
            analysisType: config.data.analysisType,
            uploadId,
            fileName,
            missingTokens: config.data.missingTokens,
          };
          return reply.code(201).send(await start(actor, input, config.data.projectId));
        },
      );

      await registerExplorerRoutes(scope, kit);
    });
  },
};
