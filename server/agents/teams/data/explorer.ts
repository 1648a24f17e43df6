import { fredApiKeyFor, kaggleCredentialsFor } from './credentials';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  API_SOURCE_INFO,
  chartRequestSchema,
  datasetChartReplySchema,
  datasetProfileReplySchema,
  datasetRowsQuerySchema,
  datasetRowsReplySchema,
  derivedDatasetReplySchema,
  explorerFetchRequestSchema,
  explorerUploadFieldsSchema,
  featuresRequestSchema,
  integrateRequestSchema,
  type DataOrigin,
} from '../../../../common/teams/data';
import { isDataError } from '../../../engines/profiling/index';
import { AppError, badRequest } from '../../../platform/errors';
import { DataSourceError, type FetchedDataset } from '../../../sources/data-source';
import { teamActor, type Api, type SessionActor, type Workspace } from '../../kit';
import { registerDataset } from './catalog';
import type { DataKit } from './data-kit';
import { registerReshapeRoute } from './explorer-reshape';
import { receiveUpload, refuseDataFile } from './upload';

/**
 * The Data Explorer's routes, under /api/agents/data-team/datasets: a paged preview of any
 * catalog dataset with stored data, its profile, charts, integration of two datasets, feature
 * engineering, reshaping (explorer-reshape.ts), and adding a dataset by upload or from an API. Every read goes through the
 * caller's workspace, so the catalog's visibility rules apply (404 for a dataset the caller
 * cannot see); every result is saved as a new catalog dataset.
 */

const idParams = z.object({ id: z.uuid({ message: 'id must be a dataset id' }) });

const NO_DATA =
  'This catalog entry has no stored data: it was described by hand. Add the data by upload or from an API to preview, chart or transform it.';

/**
 * Engine and connector refusals are the researcher's to fix: 400 with their message; a service
 * that does not answer is a 503.
 */
function asBadRequest(e: unknown): never {
  if (
    e instanceof DataSourceError &&
    ['timeout', 'network', 'status', 'aborted'].includes(e.kind)
  ) {
    throw new AppError('unavailable', e.message);
  }
  if (isDataError(e)) throw refuseDataFile(e, '');
  if (e instanceof DataSourceError) throw badRequest(e.message);
  throw e;
}

export async function registerExplorerRoutes(app: Api, kit: DataKit): Promise<void> {
  const user = { access: 'user' as const };
  const { profiling, sources } = kit.services;
  const workspace = (actor: SessionActor): Workspace => kit.workspaceFor(actor.id, null);

  /** The Parquet file of a dataset the caller can see. */
  async function storedData(actor: SessionActor, id: string) {
    const dataset = await workspace(actor).datasets.get(id);
    if (!(await profiling.files.hasData(dataset.id))) {
      throw new AppError('not_found', NO_DATA);
    }
    return { dataset, file: profiling.files.parquet(dataset.id) };
  }

  /** Registers a Parquet file the explorer made and moves it into the store. */
  async function saveDerived(
    actor: SessionActor,
    parquet: string,
    meta: { name: string; description: string; citation: string; details: Record<string, unknown> },
  ) {
    const profile = await profiling.engine.profile(parquet);
    const { size } = await stat(parquet);
    const dataset = await registerDataset(workspace(actor), profile, {
      name: meta.name,
      description: meta.description,
      origin: 'derived',
      format: 'parquet',
      license: 'As the source datasets.',
      citation: meta.citation,
      originDetails: meta.details,
      bytes: size,
    });
    await profiling.files.adopt(dataset.id, { parquet });
    await rm(path.dirname(parquet), { recursive: true, force: true });
    return dataset;
  }

  /** Stores a file brought in by upload or fetch: check, Parquet copy, profile, catalog entry. */
  async function saveFile(
    actor: SessionActor,
    fetched: Pick<
      FetchedDataset,
      'file' | 'fileName' | 'name' | 'description' | 'license' | 'citation'
    >,
    origin: DataOrigin,
    format: 'csv' | 'json' | undefined,
    details: Record<string, unknown>,
    missingTokens?: readonly string[],
  ) {
    const parquet = path.join(path.dirname(fetched.file), 'data.parquet');
    const { check } = await profiling.engine.load(fetched.file, fetched.fileName, format, parquet, {
      missingTokens,
    });
    const profile = await profiling.engine.profile(parquet);
    const { size } = await stat(fetched.file);
    const dataset = await registerDataset(workspace(actor), profile, {
      name: fetched.name,
      description: fetched.description,
      origin,
      format: check.format,
      license: fetched.license,
      citation: fetched.citation,
      originDetails: details,
      bytes: size,
    });
    await profiling.files.adopt(dataset.id, {
      parquet,
      original: { file: fetched.file, ext: check.format },
    });
    await rm(path.dirname(fetched.file), { recursive: true, force: true });
    return { dataset, rows: profile.rowCount, columns: profile.columnCount };
  }

  registerReshapeRoute(app, kit, { storedData, saveDerived, refuse: asBadRequest });

  app.get(
    '/datasets/:id/rows',
    {
      config: user,
      schema: {
        params: idParams,
        querystring: datasetRowsQuerySchema,
        response: { 200: datasetRowsReplySchema },
      },
    },
    async (request) => {
      const { file } = await storedData(teamActor(request), request.params.id);
      const page = await profiling.engine.preview(file, request.query.limit, request.query.offset);
      return { success: true as const, data: page };
    },
  );

  app.get(
    '/datasets/:id/profile',
    { config: user, schema: { params: idParams, response: { 200: datasetProfileReplySchema } } },
    async (request) => {
      const { file } = await storedData(teamActor(request), request.params.id);
      return { success: true as const, data: { profile: await profiling.engine.profile(file) } };
    },
  );

  app.post(
    '/datasets/:id/chart',
    {
      config: user,
      schema: {
        params: idParams,
        body: chartRequestSchema,
        response: { 200: datasetChartReplySchema },
      },
    },
    async (request) => {
      const { file } = await storedData(teamActor(request), request.params.id);
      try {
        return {
          success: true as const,
          data: { chart: await profiling.engine.chart(file, request.body) },
        };
      } catch (e) {
        return asBadRequest(e);
      }
    },
  );

  app.post(
    '/datasets/:id/features',
    {
      config: user,
      schema: {
        params: idParams,
        body: featuresRequestSchema,
        response: { 201: derivedDatasetReplySchema },
      },
    },
    async (request, reply) => {
      const actor = teamActor(request);
      const { dataset, file } = await storedData(actor, request.params.id);
      const out = await profiling.files.scratch('data.parquet');
      let notes: string[];
      try {
        notes = (await profiling.engine.features(file, request.body.spec, out)).notes;
      } catch (e) {
        await rm(path.dirname(out), { recursive: true, force: true });
        return asBadRequest(e);
      }
      const saved = await saveDerived(actor, out, {
        name: request.body.name,
        description: `Feature engineering of "${dataset.name}": ${notes.join(' ')}`,
        citation: `Derived from catalog dataset ${dataset.id} (${dataset.name}).`,
        details: { derivedFrom: dataset.id, features: request.body.spec },
      });
      return reply.code(201).send({
        success: true as const,
        message: `Saved "${saved.name}"`,
        data: { dataset: saved, notes },
      });
    },
  );

  app.post(
    '/datasets/integrate',
    {
      config: user,
      schema: { body: integrateRequestSchema, response: { 201: derivedDatasetReplySchema } },
    },
    async (request, reply) => {
      const actor = teamActor(request);
      const left = await storedData(actor, request.body.leftId);
      const right = await storedData(actor, request.body.rightId);
      const out = await profiling.files.scratch('data.parquet');
      let notes: string[];
      try {
        notes = (await profiling.engine.integrate(left.file, right.file, request.body.spec, out))
          .notes;
      } catch (e) {
        await rm(path.dirname(out), { recursive: true, force: true });
        return asBadRequest(e);
      }
      const saved = await saveDerived(actor, out, {
        name: request.body.name,
        description: `${request.body.spec.method} of "${left.dataset.name}" and "${right.dataset.name}": ${notes.join(' ')}`,
        citation: `Derived from catalog datasets ${left.dataset.id} and ${right.dataset.id}.`,
        details: {
          derivedFrom: [left.dataset.id, right.dataset.id],
          integration: request.body.spec,
        },
      });
      return reply.code(201).send({
        success: true as const,
        message: `Saved "${saved.name}"`,
        data: { dataset: saved, notes },
      });
    },
  );

  app.post(
    '/datasets/upload',
    {
      config: user,
      bodyLimit: profiling.uploadLimitBytes + 64 * 1024,
      schema: { response: { 201: derivedDatasetReplySchema } },
    },
    async (request, reply) => {
      const actor = teamActor(request);
      const { dir } = await profiling.files.newStaging();
      const got = await receiveUpload(request, dir, profiling.uploadLimitBytes);
      const fields = explorerUploadFieldsSchema.safeParse(got.fields);
      if (!fields.success) {
        await rm(dir, { recursive: true, force: true });
        throw badRequest(fields.error.issues[0]?.message ?? 'Invalid form fields');
      }
      try {
        const name = fields.data.name ?? got.fileName.replace(/\.(csv|json)$/i, '');
        const saved = await saveFile(
          actor,
          {
            file: got.file,
            fileName: got.fileName,
            name,
            description: fields.data.description ?? `Uploaded file ${got.fileName}.`,
            license: 'As stated by the uploader.',
            citation: `${got.fileName}, uploaded ${new Date().toISOString().slice(0, 10)}.`,
          },
          'upload',
          undefined,
          { origin: 'upload', fileName: got.fileName },
          fields.data.missingTokens,
        );
        return reply.code(201).send({
          success: true as const,
          message: `Added "${saved.dataset.name}"`,
          data: {
            dataset: saved.dataset,
            notes: [`${saved.rows} rows and ${saved.columns} columns stored.`],
          },
        });
      } catch (e) {
        await rm(dir, { recursive: true, force: true });
        if (isDataError(e)) throw refuseDataFile(e);
        throw e;
      }
    },
  );

  app.post(
    '/datasets/fetch',
    {
      config: user,
      schema: { body: explorerFetchRequestSchema, response: { 201: derivedDatasetReplySchema } },
    },
    async (request, reply) => {
      const actor = teamActor(request);
      const { source, datasetId, name } = request.body;
      const { dir } = await profiling.files.newStaging();
      try {
        let fetched: FetchedDataset;
        if (source === 'world_bank')
          fetched = await sources.sources.worldbank.fetch(datasetId, dir);
        else if (source === 'imf') fetched = await sources.sources.imf.fetch(datasetId, dir);
        else if (source === 'fred') {
          const apiKey = await fredApiKeyFor(workspace(actor), sources);
          fetched = await sources.sources.fred.fetch(datasetId, dir, { apiKey });
        } else {
          const credentials = await kaggleCredentialsFor(workspace(actor), sources);
          fetched = await sources.sources.kaggle.fetch(datasetId, dir, { credentials });
        }
        const saved = await saveFile(
          actor,
          { ...fetched, name: name ?? fetched.name },
          source,
          fetched.format,
          { origin: source, id: fetched.datasetId, url: fetched.url },
        );
        return reply.code(201).send({
          success: true as const,
          message: `Added "${saved.dataset.name}" from ${API_SOURCE_INFO[source].label}`,
          data: {
            dataset: saved.dataset,
            notes: [`${saved.rows} rows and ${saved.columns} columns stored.`],
          },
        });
      } catch (e) {
        await rm(dir, { recursive: true, force: true });
        return asBadRequest(e);
      }
    },
  );
}
