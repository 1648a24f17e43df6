import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  API_SOURCE_INFO,
  dataPhaseRow,
  type DataInput,
  type SourceResult,
} from '../../../../../common/teams/data';
import type { FileCheck } from '../../../../engines/profiling/index';
import { AppError } from '../../../../platform/errors';
import type { FetchedDataset } from '../../../../sources/data-source';
import { readableStoredDataset, sha256File } from '../catalog-source';
import { fredApiKeyFor, kaggleCredentialsFor } from '../credentials';
import { data } from '../definition';
import {
  DataTeamError,
  originalIn,
  phaseDeps,
  rethrowReadable,
  type PhaseDeps,
} from '../phase-deps';

/**
 * Phase 1, Data Source: the staged upload, or the dataset fetched from a public API or a web
 * address, checked by content (format, delimiter, records, UTF-8) and kept as the session's
 * original file for Data Loading; or a catalog dataset the researcher can read, whose stored
 * copy is analysed as it is.
 */
export const sourcePhase = data.phase('source', {
  name: dataPhaseRow('source').name,
  description:
    'Receives the upload, or fetches the dataset from the API or the URL, and checks its content.',
  timeoutSeconds: 600,
  run: (ctx) => runSource(phaseDeps(ctx), ctx.input),
});

export async function runSource(deps: PhaseDeps, input: DataInput): Promise<SourceResult> {
  if (input.dataSource === 'catalog') return catalogSource(deps, input.datasetId ?? '');
  const { profiling, sources, log, signal } = deps;
  const work = await profiling.files.workDir(deps.sessionId);
  let fetched: FetchedDataset;
  try {
    if (input.dataSource === 'upload') {
      const staged = input.uploadId ? await profiling.files.staged(input.uploadId) : null;
      if (!staged) {
        throw new DataTeamError(
          'The uploaded file is no longer on the server (uploads are kept for a day). Upload it again.',
        );
      }
      const fileName = input.fileName ?? path.basename(staged);
      const check = await profiling.engine.check(staged, fileName);
      const target = originalIn(work, check.format);
      await rename(staged, target);
      await rm(path.dirname(staged), { recursive: true, force: true });
      fetched = {
        source: 'url',
        datasetId: fileName,
        name: fileName.replace(/\.(csv|json)$/i, ''),
        description: `Uploaded file ${fileName}.`,
        file: target,
        format: check.format,
        fileName,
        records: check.records,
        license: 'As stated by the uploader.',
        citation: `${fileName}, uploaded ${new Date().toISOString().slice(0, 10)}.`,
        url: '',
        lastUpdated: null,
      };
      await log(`Received ${fileName} (${(await stat(target)).size} bytes)`);
    } else if (input.dataSource === 'api') {
      const api = input.apiSource ?? 'world_bank';
      const id = input.datasetId ?? '';
      const label = API_SOURCE_INFO[api].label;
      await log(`Fetching ${id} from ${label}`);
      if (api === 'world_bank') fetched = await sources.sources.worldbank.fetch(id, work, signal);
      else if (api === 'imf') fetched = await sources.sources.imf.fetch(id, work, signal);
      else if (api === 'fred') {
        const apiKey = await fredApiKeyFor(deps.workspace, sources);
        fetched = await sources.sources.fred.fetch(id, work, { apiKey, signal });
      } else {
        const credentials = await kaggleCredentialsFor(deps.workspace, sources);
        fetched = await sources.sources.kaggle.fetch(id, work, { credentials, signal });
      }
      await log(
        `${label} returned ${fetched.records === null ? 'a file' : `${fetched.records} records`} for ${fetched.datasetId}`,
      );
    } else {
      await log(`Downloading ${input.datasetId ?? ''}`);
      fetched = await sources.sources.url.fetch(input.datasetId ?? '', work, signal);
      const { size } = await stat(fetched.file);
      await log(`Downloaded ${fetched.fileName} (${size} bytes)`);
    }
  } catch (e) {
    return rethrowReadable(e);
  }

  let check: FileCheck;
  try {
    check = await profiling.engine.check(fetched.file, fetched.fileName, fetched.format);
  } catch (e) {
    await rm(fetched.file, { force: true });
    return rethrowReadable(e);
  }
  const target = originalIn(work, check.format);
  if (fetched.file !== target) await rename(fetched.file, target);
  const { size } = await stat(target);
  await log(
    `Checked the content: ${check.format.toUpperCase()}${check.delimiter ? ` with "${check.delimiter === '\t' ? 'tab' : check.delimiter}" delimiters` : ''}, ${check.records} records, UTF-8`,
  );
  return {
    origin:
      input.dataSource === 'upload'
        ? 'upload'
        : input.dataSource === 'url'
          ? 'url'
          : (input.apiSource ?? 'world_bank'),
    originId: fetched.datasetId,
    name: fetched.name,
    description: fetched.description,
    fileName: fetched.fileName.endsWith(`.${check.format}`)
      ? fetched.fileName
      : `${fetched.fileName}.${check.format}`,
    format: check.format,
    bytes: size,
    records: check.records,
    license: fetched.license,
    citation: fetched.citation,
    url: fetched.url || null,
    lastUpdated: fetched.lastUpdated,
  };
}

/**
 * A catalog dataset as the session's source: read where it is stored, recorded as the session's
 * input with the SHA-256 of its stored copy (the bytes every later phase reads).
 */
async function catalogSource(deps: PhaseDeps, id: string): Promise<SourceResult> {
  let found: Awaited<ReturnType<typeof readableStoredDataset>>;
  try {
    found = await readableStoredDataset(deps.workspace, deps.profiling.files, id);
  } catch (e) {
    if (e instanceof AppError) {
      throw new DataTeamError(
        e.kind === 'not_found'
          ? `The dataset ${id} is not in the catalog, or you can no longer read it.`
          : e.message,
      );
    }
    throw e;
  }
  const { dataset, parquet } = found;
  const sha256 = await sha256File(parquet);
  deps.provenance.input({ kind: 'dataset', id: dataset.id, sha256 });
  const page = await deps.profiling.engine.preview(parquet, 1, 0);
  const { size } = await stat(parquet);
  await deps.log(
    `Reading "${dataset.name}" from the catalog: ${page.total} rows and ${page.columns.length} columns as stored (SHA-256 ${sha256.slice(0, 12)}...)`,
  );
  return {
    origin: 'catalog',
    originId: dataset.id,
    name: dataset.name,
    description: dataset.description,
    fileName: 'data.parquet',
    format: 'parquet',
    bytes: size,
    records: page.total,
    license: dataset.license,
    citation: dataset.metadata.citation,
    url: null,
    lastUpdated: dataset.lastUpdated,
  };
}
