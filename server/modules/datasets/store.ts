import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { DatasetDataType, DatasetSource } from '../../../common/datasets';
import type { Database } from '../../db/connect';
import { datasets, projectDatasets, type DatasetRow } from '../../db/schema';
import { containsPattern, memberProjectIds } from '../projects/visibility';

export type NewDatasetRow = typeof datasets.$inferInsert;
export type DatasetPatch = Partial<Omit<NewDatasetRow, 'id' | 'ownerId' | 'createdAt'>>;

export interface DatasetListFilter {
  /** Undefined: every entry (admins). */
  visibleTo?: string;
  ownedBy?: string;
  search?: string;
  source?: DatasetSource;
  dataType?: DatasetDataType;
  limit: number;
  offset: number;
}

export function createDatasetsStore(db: Database) {
  /** Own entries, and entries linked to a project the user owns or is a member of. */
  function visibleCondition(userId: string): SQL {
    return or(
      eq(datasets.ownerId, userId),
      inArray(
        datasets.id,
        db
          .select({ id: projectDatasets.datasetId })
          .from(projectDatasets)
          .where(inArray(projectDatasets.projectId, memberProjectIds(db, userId))),
      ),
    )!;
  }

  function conditions(f: DatasetListFilter): SQL | undefined {
    const all: SQL[] = [];
    if (f.visibleTo) all.push(visibleCondition(f.visibleTo));
    if (f.ownedBy) all.push(eq(datasets.ownerId, f.ownedBy));
    if (f.search) {
      const p = containsPattern(f.search);
      all.push(or(ilike(datasets.name, p), ilike(datasets.description, p))!);
    }
    if (f.source) all.push(eq(datasets.source, f.source));
    if (f.dataType) all.push(eq(datasets.dataType, f.dataType));
    return all.length > 0 ? and(...all) : undefined;
  }

  return {
    async list(f: DatasetListFilter): Promise<{ rows: DatasetRow[]; total: number }> {
      const where = conditions(f);
      const rows = await db
        .select()
        .from(datasets)
        .where(where)
        .orderBy(desc(datasets.createdAt), desc(datasets.id))
        .limit(f.limit)
        .offset(f.offset);
      const [total] = await db.select({ n: count() }).from(datasets).where(where);
      return { rows, total: total?.n ?? 0 };
    },

    /** The entry if the user may see it (any entry when visibleTo is undefined). */
    async find(id: string, visibleTo: string | undefined): Promise<DatasetRow | undefined> {
      const [row] = await db
        .select()
        .from(datasets)
        .where(and(eq(datasets.id, id), visibleTo ? visibleCondition(visibleTo) : undefined))
        .limit(1);
      return row;
    },

    async insert(values: NewDatasetRow): Promise<DatasetRow> {
      const [row] = await db.insert(datasets).values(values).returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    },

    async update(id: string, patch: DatasetPatch): Promise<DatasetRow | undefined> {
      const [row] = await db
        .update(datasets)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(datasets.id, id))
        .returning();
      return row;
    },

    async remove(id: string): Promise<void> {
      await db.delete(datasets).where(eq(datasets.id, id));
    },

    /** The ids among `ids` that are catalog entries. */
    async existingIds(ids: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      // In slices: a statement takes at most 65,535 parameters.
      for (let i = 0; i < ids.length; i += 1000) {
        const rows = await db
          .select({ id: datasets.id })
          .from(datasets)
          .where(inArray(datasets.id, ids.slice(i, i + 1000)));
        for (const r of rows) found.add(r.id);
      }
      return found;
    },
  };
}
export type DatasetsStore = ReturnType<typeof createDatasetsStore>;
