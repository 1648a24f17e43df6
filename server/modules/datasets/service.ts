import type { z } from 'zod';
import type {
  Dataset,
  DatasetField,
  createDatasetRequestSchema,
  datasetListQuerySchema,
  updateDatasetRequestSchema,
} from '../../../common/datasets';
import type { Database } from '../../db/connect';
import type { DatasetOriginKind, DatasetRow } from '../../db/schema';
import type { AuthUser } from '../../platform/access';
import { forbidden, notFound } from '../../platform/errors';
import { assertStorageQuota } from '../../platform/storage-quota';
import { createDatasetsStore, type DatasetPatch, type DatasetsStore } from './store';

type CreateInput = z.output<typeof createDatasetRequestSchema>;
type UpdateInput = z.output<typeof updateDatasetRequestSchema>;
type ListInput = z.output<typeof datasetListQuerySchema>;

export function toDataset(row: DatasetRow, caller: AuthUser | null): Dataset {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    source: row.source,
    dataType: row.dataType,
    fields: row.fields,
    recordCount: row.recordCount,
    dateRange: { start: row.dateStart, end: row.dateEnd },
    dateAdded: row.createdAt.toISOString(),
    lastUpdated: row.updatedAt.toISOString(),
    format: row.format,
    license: row.license,
    integrationLevel: row.integrationLevel,
    metadata: row.metadata,
    ownerId: row.ownerId,
    canEdit: caller !== null && caller.id === row.ownerId && caller.role !== 'viewer',
  };
}

/** What a new catalog entry needs; everything but the names has a default. */
export interface NewDatasetRecord {
  ownerId: string;
  name: string;
  source: CreateInput['source'];
  dataType: CreateInput['dataType'];
  description?: string;
  fields?: DatasetField[];
  recordCount?: number | null;
  dateRange?: { start: string | null; end: string | null };
  format?: string;
  license?: string;
  integrationLevel?: 'full' | 'partial';
  metadata?: Partial<Dataset['metadata']>;
  /** 'upload' or 'api' for entries the Data team creates; 'manual' for the catalog form. */
  originKind?: DatasetOriginKind;
  /** Where the data lives (file path, API query); stored, never returned by the API. */
  originDetails?: Record<string, unknown>;
  /**
   * Bytes of the data file the Data team stored for this entry (its owner's storage quota counts
   * them); without a file, the catalog entry's own size counts.
   */
  sizeBytes?: number;
}

/** What a catalog entry without a stored file takes: its text and JSON columns, in bytes. */
export function catalogEntryBytes(
  entry: Pick<DatasetRow, 'name' | 'description' | 'fields' | 'metadata'> & {
    originDetails?: Record<string, unknown> | null;
  },
): number {
  return (
    Buffer.byteLength(entry.name) +
    Buffer.byteLength(entry.description) +
    Buffer.byteLength(JSON.stringify(entry.fields)) +
    Buffer.byteLength(JSON.stringify(entry.metadata)) +
    (entry.originDetails ? Buffer.byteLength(JSON.stringify(entry.originDetails)) : 0)
  );
}

/**
 * Creates a catalog entry. The Data team (uploads, World Bank/IMF/FRED fetches) calls this after
 * it has stored the data, so the entry shows up in the Data Explorer and can be linked to
 * projects. It does not check roles: callers decide who may create.
 */
export async function createDatasetRecord(db: Database, input: NewDatasetRecord): Promise<Dataset> {
  const entry = {
    ownerId: input.ownerId,
    name: input.name,
    source: input.source,
    dataType: input.dataType,
    description: input.description ?? '',
    fields: input.fields ?? [],
    recordCount: input.recordCount ?? null,
    dateStart: input.dateRange?.start ?? null,
    dateEnd: input.dateRange?.end ?? null,
    format: input.format ?? '',
    license: input.license ?? '',
    integrationLevel: input.integrationLevel ?? 'partial',
    metadata: {
      hasFullText: input.metadata?.hasFullText ?? false,
      citation: input.metadata?.citation ?? '',
      apiAvailable: input.metadata?.apiAvailable ?? false,
    },
    originKind: input.originKind ?? 'manual',
    originDetails: input.originDetails ?? null,
  };
  const sizeBytes = input.sizeBytes ?? catalogEntryBytes(entry);
  await assertStorageQuota(db, input.ownerId, sizeBytes);
  const row = await createDatasetsStore(db).insert({ ...entry, sizeBytes });
  return toDataset(row, null);
}

/**
 * Rules: a user sees their own entries and those linked to projects they own or are a member of;
 * admins see every entry. Only the owner edits or deletes (an account with the viewer role never
 * does); viewer accounts cannot create entries. Entries the caller may not see answer 404.
 */
export function createDatasetsService(db: Database, store: DatasetsStore) {
  const visibleTo = (user: AuthUser) => (user.role === 'admin' ? undefined : user.id);

  async function load(user: AuthUser, id: string): Promise<DatasetRow> {
    const row = await store.find(id, visibleTo(user));
    if (!row) throw notFound('Dataset');
    return row;
  }

  async function loadForChange(user: AuthUser, id: string): Promise<DatasetRow> {
    const row = await load(user, id);
    if (row.ownerId !== user.id || user.role === 'viewer') {
      throw forbidden('Only the owner of this dataset can change it');
    }
    return row;
  }

  return {
    async list(user: AuthUser, q: ListInput) {
      const { rows, total } = await store.list({
        visibleTo: visibleTo(user),
        ownedBy: q.scope === 'mine' ? user.id : undefined,
        search: q.search,
        source: q.source,
        dataType: q.dataType,
        limit: q.limit,
        offset: q.offset,
      });
      return {
        datasets: rows.map((r) => toDataset(r, user)),
        total,
        limit: q.limit,
        offset: q.offset,
      };
    },

    async get(user: AuthUser, id: string): Promise<Dataset> {
      return toDataset(await load(user, id), user);
    },

    async create(user: AuthUser, input: CreateInput): Promise<Dataset> {
      if (user.role === 'viewer') throw forbidden('Viewers cannot add datasets');
      const dataset = await createDatasetRecord(db, { ...input, ownerId: user.id });
      return { ...dataset, canEdit: true };
    },

    async update(user: AuthUser, id: string, input: UpdateInput): Promise<Dataset> {
      const row = await loadForChange(user, id);
      const patch: DatasetPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.description !== undefined) patch.description = input.description;
      if (input.source !== undefined) patch.source = input.source;
      if (input.dataType !== undefined) patch.dataType = input.dataType;
      if (input.fields !== undefined) patch.fields = input.fields;
      if (input.recordCount !== undefined) patch.recordCount = input.recordCount;
      if (input.dateRange !== undefined) {
        patch.dateStart = input.dateRange.start;
        patch.dateEnd = input.dateRange.end;
      }
      if (input.format !== undefined) patch.format = input.format;
      if (input.license !== undefined) patch.license = input.license;
      if (input.integrationLevel !== undefined) patch.integrationLevel = input.integrationLevel;
      if (input.metadata !== undefined) patch.metadata = { ...row.metadata, ...input.metadata };
      if (row.originKind === 'manual') {
        // A catalog entry's size is the entry itself: an edit that grows it counts.
        patch.sizeBytes = catalogEntryBytes({ ...row, ...patch });
        await assertStorageQuota(db, row.ownerId, patch.sizeBytes, row.sizeBytes);
      }
      const updated = await store.update(id, patch);
      if (!updated) throw notFound('Dataset');
      return toDataset(updated, user);
    },

    async remove(user: AuthUser, id: string): Promise<void> {
      await loadForChange(user, id);
      await store.remove(id);
    },
  };
}
