import {
  and,
  count,
  desc,
  eq,
  ilike,
  inArray,
  or,
  sql,
  type SQL,
  type Placeholder,
  type SQLWrapper,
} from 'drizzle-orm';
import { DOCUMENT_INLINE_MAX_BYTES, type DocumentCategory } from '../../../common/documents';
import type { Database } from '../../db/connect';
import { documents, projects, type DocumentRow } from '../../db/schema';
import { conflict } from '../../platform/errors';
import { assertStorageQuota } from '../../platform/storage-quota';
import { preparedPerShape } from '../../db/prepared';
import { containsPattern, memberProjectIds } from '../projects/visibility';

export type NewDocumentRow = typeof documents.$inferInsert;
export type DocumentPatch = Partial<
  Pick<
    NewDocumentRow,
    'name' | 'category' | 'validated' | 'reproducible' | 'projectId' | 'content' | 'sizeBytes'
  >
>;

/** A document row with its project's title (and owner, for permissions). */
export interface DocumentRecord<R extends DocumentSummaryRow = DocumentContentRow> {
  row: R;
  projectTitle: string | null;
  projectOwnerId: string | null;
}

export interface DocumentListFilter {
  /** Undefined: every document (admins). */
  visibleTo?: string;
  search?: string;
  /** Any of these categories. */
  categories?: readonly DocumentCategory[];
  projectId?: string;
  limit: number;
  offset: number;
}

/** Listing never loads the content column. */
const summaryColumns = {
  id: documents.id,
  ownerId: documents.ownerId,
  projectId: documents.projectId,
  sessionId: documents.sessionId,
  name: documents.name,
  category: documents.category,
  format: documents.format,
  origin: documents.origin,
  sizeBytes: documents.sizeBytes,
  validated: documents.validated,
  reproducible: documents.reproducible,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
};
export type DocumentSummaryRow = Omit<DocumentRow, 'content' | 'fileData' | 'provenance'>;
/**
 * A document with its text; the stored file (a PDF's bytes) is read only for a download, its
 * provenance only when asked for.
 */
export type DocumentContentRow = Omit<DocumentRow, 'fileData' | 'provenance'>;
const contentColumns = { ...summaryColumns, content: documents.content };

/** A document to show: its text only when it is small enough to go inside a JSON reply. */
export type DocumentViewRow = DocumentContentRow & {
  /** Bytes of the stored text; when over DOCUMENT_INLINE_MAX_BYTES, `content` is ''. */
  contentBytes: number;
};

/** Characters read from the database per step while streaming a document's text. */
export const CONTENT_CHUNK_CHARS = 256 * 1024;

/** The list filter as the statement sees it: values, or the placeholders they are bound to. */
interface ListConditions {
  visibleTo?: string | SQLWrapper;
  pattern?: string | SQLWrapper;
  categories?: ReadonlyArray<DocumentCategory | Placeholder>;
  projectId?: string | SQLWrapper;
}

function listConditionsOf(f: Omit<DocumentListFilter, 'limit' | 'offset'>): ListConditions {
  return {
    visibleTo: f.visibleTo,
    pattern: f.search ? containsPattern(f.search) : undefined,
    categories: f.categories,
    projectId: f.projectId,
  };
}

export function createDocumentsStore(db: Database) {
  /** Own documents, and documents of projects the user owns or is a member of. */
  function visibleCondition(userId: string | SQLWrapper): SQL {
    return or(
      eq(documents.ownerId, userId),
      inArray(documents.projectId, memberProjectIds(db, userId)),
    )!;
  }

  function conditions(f: ListConditions): SQL | undefined {
    const all: SQL[] = [];
    if (f.visibleTo) all.push(visibleCondition(f.visibleTo));
    if (f.pattern) {
      // The text too: a PDF's extracted text is what makes it findable by what it says.
      const p = f.pattern;
      all.push(
        or(ilike(documents.name, p), ilike(projects.title, p), ilike(documents.content, p))!,
      );
    }
    if (f.categories) all.push(inArray(documents.category, [...f.categories]));
    if (f.projectId) all.push(eq(documents.projectId, f.projectId));
    return all.length > 0 ? and(...all) : undefined;
  }

  /**
   * The page, its total (`count(*) over ()`) and the counts per category (an uncorrelated
   * subquery, evaluated once) in one statement, prepared once per set of filters used (and
   * number of categories) and reused: a request only binds its values (docs/performance.md).
   */
  const listStatement = preparedPerShape('documents_list', buildList);
  function buildList(
    shape: { visibleTo: boolean; pattern: boolean; categories: number; projectId: boolean },
    name: string,
  ) {
    const bound: ListConditions = {
      visibleTo: shape.visibleTo ? sql.placeholder('visibleTo') : undefined,
      pattern: shape.pattern ? sql.placeholder('pattern') : undefined,
      categories:
        shape.categories > 0
          ? Array.from({ length: shape.categories }, (_, i) => sql.placeholder(`category${i}`))
          : undefined,
      projectId: shape.projectId ? sql.placeholder('projectId') : undefined,
    };
    const countsWhere = conditions({ ...bound, categories: undefined });
    const byCategory = db
      .select({ category: documents.category, n: count().as('n') })
      .from(documents)
      .leftJoin(projects, eq(projects.id, documents.projectId))
      .where(countsWhere)
      .groupBy(documents.category)
      .as('c');
    return db
      .select({
        row: summaryColumns,
        projectTitle: projects.title,
        projectOwnerId: projects.ownerId,
        total: sql<number>`count(*) over ()`.mapWith(Number),
        categoryCounts: sql<
          Record<string, number>
        >`(select coalesce(json_object_agg(${byCategory.category}, ${byCategory.n}), '{}'::json) from ${byCategory})`,
      })
      .from(documents)
      .leftJoin(projects, eq(projects.id, documents.projectId))
      .where(conditions(bound))
      .orderBy(desc(documents.createdAt), desc(documents.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }

  return {
    async list(f: DocumentListFilter) {
      const categories = f.categories ? [...new Set(f.categories)] : undefined;
      const shape = {
        visibleTo: f.visibleTo !== undefined,
        pattern: Boolean(f.search),
        categories: categories?.length ?? 0,
        projectId: f.projectId !== undefined,
      };
      const key = `${Number(shape.visibleTo)}${Number(shape.pattern)}${shape.categories}${Number(shape.projectId)}`;
      const values: Record<string, unknown> = {
        visibleTo: f.visibleTo,
        pattern: f.search ? containsPattern(f.search) : undefined,
        projectId: f.projectId,
        limit: f.limit,
        offset: f.offset,
      };
      categories?.forEach((c, i) => (values[`category${i}`] = c));
      const found = await listStatement(key, shape).execute(values);
      const first = found[0];
      if (first) {
        return {
          rows: found.map((r) => ({
            row: r.row,
            projectTitle: r.projectTitle,
            projectOwnerId: r.projectOwnerId,
          })),
          total: first.total,
          categoryCounts: first.categoryCounts,
        };
      }
      // An empty page (nothing matched, or past the last page): the counts on their own.
      return this.listApart(f);
    },

    /** The list in three statements: page, total, counts per category (an empty page). */
    async listApart(f: DocumentListFilter) {
      const where = conditions(listConditionsOf(f));
      const rows = await db
        .select({
          row: summaryColumns,
          projectTitle: projects.title,
          projectOwnerId: projects.ownerId,
        })
        .from(documents)
        .leftJoin(projects, eq(projects.id, documents.projectId))
        .where(where)
        .orderBy(desc(documents.createdAt), desc(documents.id))
        .limit(f.limit)
        .offset(f.offset);
      const [total] = await db
        .select({ n: count() })
        .from(documents)
        .leftJoin(projects, eq(projects.id, documents.projectId))
        .where(where);
      const byCategory = await db
        .select({ category: documents.category, n: count() })
        .from(documents)
        .leftJoin(projects, eq(projects.id, documents.projectId))
        .where(conditions(listConditionsOf({ ...f, categories: undefined })))
        .groupBy(documents.category);
      return {
        rows,
        total: total?.n ?? 0,
        categoryCounts: Object.fromEntries(byCategory.map((c) => [c.category, c.n])),
      };
    },

    async find(id: string, visibleTo: string | undefined): Promise<DocumentRecord | undefined> {
      const [record] = await db
        .select({
          row: contentColumns,
          projectTitle: projects.title,
          projectOwnerId: projects.ownerId,
        })
        .from(documents)
        .leftJoin(projects, eq(projects.id, documents.projectId))
        .where(and(eq(documents.id, id), visibleTo ? visibleCondition(visibleTo) : undefined))
        .limit(1);
      return record;
    },

    /**
     * Like find, but the text comes along only when it is at most DOCUMENT_INLINE_MAX_BYTES:
     * a large document is never read whole into memory to be shown.
     */
    async findForView(
      id: string,
      visibleTo: string | undefined,
    ): Promise<DocumentRecord<DocumentViewRow> | undefined> {
      const [record] = await db
        .select({
          row: {
            ...summaryColumns,
            contentBytes: sql<number>`octet_length(${documents.content})`.mapWith(Number),
            content: sql<string>`case when octet_length(${documents.content}) <= ${DOCUMENT_INLINE_MAX_BYTES} then ${documents.content} else '' end`,
          },
          projectTitle: projects.title,
          projectOwnerId: projects.ownerId,
        })
        .from(documents)
        .leftJoin(projects, eq(projects.id, documents.projectId))
        .where(and(eq(documents.id, id), visibleTo ? visibleCondition(visibleTo) : undefined))
        .limit(1);
      return record;
    },

    /**
     * The document's text in pieces of CONTENT_CHUNK_CHARS characters, one query each, so that
     * a large document goes to the client without being held in memory. Stops with an error if
     * the document is changed or deleted while it is read (the pieces would not fit together).
     */
    async *contentChunks(id: string, version: Date): AsyncGenerator<string> {
      for (let start = 1; ; start += CONTENT_CHUNK_CHARS) {
        const [row] = await db
          .select({
            piece: sql<string>`substr(${documents.content}, ${start}, ${CONTENT_CHUNK_CHARS})`,
          })
          .from(documents)
          // The Date has milliseconds, the column microseconds: compare at the Date's precision.
          .where(
            and(
              eq(documents.id, id),
              sql`date_trunc('milliseconds', ${documents.updatedAt}) = ${version}`,
            ),
          )
          .limit(1);
        if (!row) throw conflict('The document changed while it was being read; open it again');
        if (row.piece.length > 0) yield row.piece;
        if (row.piece.length < CONTENT_CHUNK_CHARS) return;
      }
    },

    /** 413 when storing `addBytes` (in place of `freeBytes`) would take the owner over quota. */
    checkQuota(ownerId: string, addBytes: number, freeBytes = 0): Promise<void> {
      return assertStorageQuota(db, ownerId, addBytes, freeBytes);
    },

    /** A visible document's provenance as stored (null when none was), or undefined. */
    async findProvenance(id: string, visibleTo: string | undefined) {
      const [record] = await db
        .select({
          projectId: documents.projectId,
          sessionId: documents.sessionId,
          createdAt: documents.createdAt,
          provenance: documents.provenance,
        })
        .from(documents)
        .where(and(eq(documents.id, id), visibleTo ? visibleCondition(visibleTo) : undefined))
        .limit(1);
      return record;
    },

    /** The stored file of a non-text document (a PDF), or null. */
    async fileData(id: string): Promise<Buffer | null> {
      const [row] = await db
        .select({ fileData: documents.fileData })
        .from(documents)
        .where(eq(documents.id, id))
        .limit(1);
      return row?.fileData ?? null;
    },

    async insert(values: NewDocumentRow): Promise<string> {
      const [row] = await db.insert(documents).values(values).returning({ id: documents.id });
      if (!row) throw new Error('insert returned no row');
      return row.id;
    },

    async update(id: string, patch: DocumentPatch): Promise<void> {
      await db
        .update(documents)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(documents.id, id));
    },

    async remove(id: string): Promise<void> {
      await db.delete(documents).where(eq(documents.id, id));
    },

    async projectExists(id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: projects.id })
        .from(projects)
        .where(eq(projects.id, id))
        .limit(1);
      return row !== undefined;
    },
  };
}
export type DocumentsStore = ReturnType<typeof createDocumentsStore>;
