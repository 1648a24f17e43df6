import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { missingTokensFile } from './missing-tokens';

/**
 * Where the Data team keeps files, under the profiling service's own data folder:
 *   staging/<uploadId>/<file>      an upload received before its session starts
 *   work/<sessionId>/...           a session's files before they belong to a catalog entry
 *   datasets/<datasetId>/original.<csv|json> and data.parquet (written once), with
 *                                  data.parquet.missing-tokens.json when loaded from a file
 * A catalog entry has data when its data.parquet exists; entries made by hand have none.
 */
export interface DatasetFiles {
  readonly root: string;
  /** A new staging folder for one upload. */
  newStaging(): Promise<{ uploadId: string; dir: string }>;
  /** The staged upload's file, or null when it is gone. */
  staged(uploadId: string): Promise<string | null>;
  discardStaging(uploadId: string): Promise<void>;
  /** A session's working folder (created). */
  workDir(sessionId: string): Promise<string>;
  parquet(datasetId: string): string;
  hasData(datasetId: string): Promise<boolean>;
  /** Moves a dataset's files into its folder (the original may be absent for derived data). */
  adopt(
    datasetId: string,
    files: { parquet: string; original?: { file: string; ext: 'csv' | 'json' } },
  ): Promise<void>;
  /** Deletes a dataset's folder (original and Parquet); nothing happens when there is none. */
  remove(datasetId: string): Promise<void>;
  /** The ids of every dataset folder, to find those whose catalog entry is gone. */
  storedDatasetIds(): Promise<string[]>;
  /** A fresh path for a derived dataset's Parquet file before it has an id. */
  scratch(name: string): Promise<string>;
  /** Removes staging and work folders older than `maxAgeMs`. */
  sweep(maxAgeMs: number): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids become folder names: only UUIDs, so no path can be smuggled in. */
function safeId(id: string, what: string): string {
  if (!UUID.test(id)) throw new Error(`${what} is not a UUID`);
  return id.toLowerCase();
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

export function createDatasetFiles(root: string): DatasetFiles {
  const dir = (...parts: string[]) => path.join(root, ...parts);
  const ensure = async (p: string) => {
    await mkdir(p, { recursive: true, mode: 0o700 });
    return p;
  };
  return {
    root,
    async newStaging() {
      const uploadId = randomUUID();
      return { uploadId, dir: await ensure(dir('staging', uploadId)) };
    },
    async staged(uploadId) {
      const folder = dir('staging', safeId(uploadId, 'uploadId'));
      try {
        const names = await readdir(folder);
        return names[0] ? path.join(folder, names[0]) : null;
      } catch {
        return null;
      }
    },
    async discardStaging(uploadId) {
      await rm(dir('staging', safeId(uploadId, 'uploadId')), { recursive: true, force: true });
    },
    workDir: (sessionId) => ensure(dir('work', safeId(sessionId, 'sessionId'))),
    parquet: (datasetId) => dir('datasets', safeId(datasetId, 'datasetId'), 'data.parquet'),
    hasData: (datasetId) =>
      UUID.test(datasetId)
        ? exists(dir('datasets', datasetId.toLowerCase(), 'data.parquet'))
        : Promise.resolve(false),
    async adopt(datasetId, files) {
      const target = await ensure(dir('datasets', safeId(datasetId, 'datasetId')));
      if (files.original)
        await rename(files.original.file, path.join(target, `original.${files.original.ext}`));
      const parquet = path.join(target, 'data.parquet');
      // The record of missing-value tokens goes with the copy it describes, when there is one.
      await rename(missingTokensFile(files.parquet), missingTokensFile(parquet)).catch(
        (e: NodeJS.ErrnoException) => {
          if (e.code !== 'ENOENT') throw e;
        },
      );
      await rename(files.parquet, parquet);
    },
    async remove(datasetId) {
      await rm(dir('datasets', safeId(datasetId, 'datasetId')), { recursive: true, force: true });
    },
    async storedDatasetIds() {
      const names = await readdir(dir('datasets')).catch(() => [] as string[]);
      return names.filter((name) => UUID.test(name));
    },
    async scratch(name) {
      const folder = await ensure(dir('work', `derived-${randomUUID()}`));
      return path.join(folder, name);
    },
    async sweep(maxAgeMs) {
      const now = Date.now();
      for (const area of ['staging', 'work']) {
        const names = await readdir(dir(area)).catch(() => [] as string[]);
        for (const name of names) {
          const p = dir(area, name);
          const info = await stat(p).catch(() => null);
          if (info && now - info.mtimeMs > maxAgeMs) await rm(p, { recursive: true, force: true });
        }
      }
    },
  };
}
