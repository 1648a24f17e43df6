import type { FastifyBaseLogger } from 'fastify';
import type { DatasetFiles } from '../../../engines/profiling/files';
import type { DatasetCatalogEvents } from '../../kit';

/**
 * The Data team's stored files follow the catalog: deleting a catalog entry deletes its original
 * file and its Parquet copy at once, and at start the folders of entries deleted earlier (while
 * the server was down, or before this rule) are cleared. The storage quota counts the entry's
 * recorded size, so it is released with the entry.
 */
export function keepFilesWithCatalog(
  files: DatasetFiles,
  catalog: DatasetCatalogEvents,
  log: FastifyBaseLogger,
): void {
  catalog.onDatasetRemoved((datasetId) => files.remove(datasetId));
  removeOrphanedFiles(files, catalog)
    .then((removed) => {
      if (removed > 0) log.info({ removed }, 'removed data files of deleted catalog datasets');
    })
    .catch((err: unknown) => log.warn({ err }, 'could not clear files of deleted datasets'));
}

/** Deletes the folders whose catalog entry is gone; returns how many. */
export async function removeOrphanedFiles(
  files: DatasetFiles,
  catalog: Pick<DatasetCatalogEvents, 'existingDatasetIds'>,
): Promise<number> {
  const stored = await files.storedDatasetIds();
  const existing = await catalog.existingDatasetIds(stored);
  const orphans = stored.filter((id) => !existing.has(id));
  for (const id of orphans) await files.remove(id);
  return orphans.length;
}
