import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  catalogDatasetsQuerySchema,
  catalogDatasetsReplySchema,
  type CatalogDataset,
} from '../../../../common/teams/data';
import type { Dataset } from '../../../../common/datasets';
import type { DatasetFiles } from '../../../engines/profiling/files';
import { AppError, badRequest } from '../../../platform/errors';
import { teamActor, type Api, type Workspace } from '../../kit';
import type { DataKit } from './data-kit';

/**
 * A dataset already stored in the project or the catalog as the Data team's fourth source: the
 * caller must be able to read it (the catalog's own rules: their entries and their projects'; a
 * 404 otherwise, as for any dataset they cannot see) and it must have stored data (an entry
 * described by hand has none). The session reads its Parquet copy in place: no new catalog
 * entry, and the input recorded with the SHA-256 of the bytes analysed.
 */

export const NO_STORED_DATA =
  'This catalog entry has no stored data: it was described by hand. Add the data by upload or from an API before analysing it.';

/** A dataset the workspace's user can read, with its stored Parquet copy. */
export async function readableStoredDataset(
  workspace: Workspace,
  files: DatasetFiles,
  id: string,
): Promise<{ dataset: Dataset; parquet: string }> {
  const dataset = await workspace.datasets.get(id);
  if (!(await files.hasData(dataset.id))) throw badRequest(NO_STORED_DATA);
  return { dataset, parquet: files.parquet(dataset.id) };
}

/** The SHA-256 of a file, read as a stream. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const LIST_LIMIT = 200;

/**
 * The stored datasets the user can analyse: the project's first (in the project's order) when
 * a project is given, then the rest of what the user can see, most recent first.
 */
export async function analysableDatasets(
  workspace: Workspace,
  files: DatasetFiles,
  search: string | undefined,
): Promise<CatalogDataset[]> {
  const project = await workspace.project();
  const inProject = new Set(project?.datasets ?? []);
  const projectOnes: Dataset[] = [];
  for (const id of project?.datasets ?? []) {
    const found = await workspace.datasets.get(id).catch((e: unknown) => {
      if (e instanceof AppError && e.kind === 'not_found') return null;
      throw e;
    });
    if (found) projectOnes.push(found);
  }
  const others = (await workspace.datasets.list({ search, limit: LIST_LIMIT })).filter(
    (d) => !inProject.has(d.id),
  );
  const needle = search?.toLowerCase();
  const matches = (d: Dataset) =>
    !needle ||
    d.name.toLowerCase().includes(needle) ||
    d.description.toLowerCase().includes(needle);
  const out: CatalogDataset[] = [];
  for (const d of [...projectOnes.filter(matches), ...others]) {
    if (out.length >= LIST_LIMIT) break;
    if (!(await files.hasData(d.id))) continue;
    out.push({
      id: d.id,
      name: d.name,
      description: d.description,
      recordCount: d.recordCount,
      inProject: inProject.has(d.id),
      lastUpdated: d.lastUpdated,
    });
  }
  return out;
}

/** GET /catalog-datasets?projectId=&search=: what the screen's catalog choice lists. */
export function registerCatalogDatasetRoutes(app: Api, kit: DataKit): void {
  app.get(
    '/catalog-datasets',
    {
      config: { access: 'user' as const },
      schema: {
        querystring: catalogDatasetsQuerySchema,
        response: { 200: catalogDatasetsReplySchema },
      },
    },
    async (request) => {
      const actor = teamActor(request);
      const { projectId, search } = request.query;
      const workspace = kit.workspaceFor(actor.id, projectId ?? null);
      const datasets = await analysableDatasets(
        workspace,
        kit.services.profiling.files,
        search || undefined,
      );
      return { success: true as const, datasets };
    },
  );
}
