import {
  and,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { DatasetDataType, DatasetSource } from '../../../common/datasets';
import type { Database } from '../../db/connect';
import { datasets, projectDatasets, type DatasetRow } from '../../db/schema';
import { preparedPerShape } from '../../db/prepared';
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

/** A value of a filter, or the placeholder it is bound to in a prepared statement. */
type Bind = string | SQLWrapper;

/** The list filter as the statement sees it: the search already a pattern. */
interface ListConditions {
  visibleTo?: Bind;
  ownedBy?: Bind;
  pattern?: Bind;
  source?: DatasetSource | SQLWrapper;
  dataType?: DatasetDataType | SQLWrapper;
}
const LIST_FIELDS = ['visibleTo', 'ownedBy', 'pattern', 'source', 'dataType'] as const;

export function createDatasetsStore(db: Database) {
  /** Own entries, and entries linked to a project the user owns or is a member of. */
  function visibleCondition(userId: Bind): SQL {
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

  function conditions(f: ListConditions): SQL | undefined {
    const all: SQL[] = [];
    if (f.visibleTo) all.push(visibleCondition(f.visibleTo));
    if (f.ownedBy) all.push(eq(datasets.ownerId, f.ownedBy));
    if (f.pattern) {
      all.push(or(ilike(datasets.name, f.pattern), ilike(datasets.description, f.pattern))!);
    }
    if (f.source) all.push(eq(datasets.source, f.source));
    if (f.dataType) all.push(eq(datasets.dataType, f.dataType));
    return all.length > 0 ? and(...all) : undefined;
  }

  /**
   * The page and its total (`count(*) over ()`) in one statement, prepared once per set of
   * filters used and reused: a request only binds its values (docs/performance.md, API reads).
   */
  const listStatement = preparedPerShape('datasets_list', buildList);
  function buildList(used: ReadonlySet<string>, name: string) {
    const bound: ListConditions = {};
    for (const field of LIST_FIELDS) if (used.has(field)) bound[field] = sql.placeholder(field);
    return db
      .select({
        ...getTableColumns(datasets),
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(datasets)
      .where(conditions(bound))
      .orderBy(desc(datasets.createdAt), desc(datasets.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }

  return {
    async list(f: DatasetListFilter): Promise<{ rows: DatasetRow[]; total: number }> {
      const values = {
        visibleTo: f.visibleTo,
        ownedBy: f.ownedBy,
        pattern: f.search ? containsPattern(f.search) : undefined,
        source: f.source,
        dataType: f.dataType,
      };
      const used = new Set(LIST_FIELDS.filter((k) => values[k] !== undefined));
      const key = LIST_FIELDS.map((k) => (used.has(k) ? '1' : '0')).join('');
      const found = await listStatement(key, used).execute({
        ...values,
        limit: f.limit,
        offset: f.offset,
      });
      const rows = found.map(({ total: _total, ...row }) => row);
      if (found[0]) return { rows, total: found[0].total };
      // An empty page: nothing matched, or the page is past the last one.
      if (f.offset === 0) return { rows, total: 0 };
      const [total] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(datasets)
        .where(conditions(values));
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
