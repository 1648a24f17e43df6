import type { z } from 'zod';
import {
  DOCUMENT_CONTENT_MAX_BYTES,
  DOCUMENT_INLINE_MAX_BYTES,
  utf8Length,
  type DocumentCategory,
  type DocumentFormat,
  type DocumentSummary,
  type DocumentWithContent,
  type TextDocumentFormat,
  type createDocumentRequestSchema,
  type documentListQuerySchema,
  type updateDocumentRequestSchema,
} from '../../../common/documents';
import {
  documentOnlyProvenance,
  provenanceSchema,
  type Provenance,
} from '../../../common/provenance';
import type { Database } from '../../db/connect';
import type { DocumentOrigin } from '../../db/schema';
import type { AuthUser } from '../../platform/access';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors';
import type { ProjectsService } from '../projects/service';
import { checkContentFormat } from './files';
import {
  createDocumentsStore,
  type DocumentPatch,
  type DocumentRecord,
  type DocumentSummaryRow,
  type DocumentsStore,
} from './store';

type CreateInput = z.output<typeof createDocumentRequestSchema>;
type UpdateInput = z.output<typeof updateDocumentRequestSchema>;
type ListInput = z.output<typeof documentListQuerySchema>;

function canEditRecord(user: AuthUser | null, record: DocumentRecord<DocumentSummaryRow>) {
  if (!user || user.role === 'viewer') return false;
  return record.row.ownerId === user.id || record.projectOwnerId === user.id;
}

export function toSummary(
  record: DocumentRecord<DocumentSummaryRow>,
  canEdit: boolean,
): DocumentSummary {
  const { row } = record;
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    created: row.createdAt.toISOString(),
    size: row.sizeBytes,
    format: row.format,
    validated: row.validated,
    reproducible: row.reproducible,
    project: record.projectTitle,
    projectId: row.projectId,
    sessionId: row.sessionId,
    origin: row.origin,
    ownerId: row.ownerId,
    canEdit,
  };
}

function withContent(record: DocumentRecord, canEdit: boolean): DocumentWithContent {
  return { ...toSummary(record, canEdit), content: record.row.content };
}

function checkSize(content: string, limit: number): number {
  const size = utf8Length(content);
  if (size > limit) {
    throw new AppError('too_large', `content: larger than the ${limit} byte limit`);
  }
  return size;
}

export interface SessionDocumentInput {
  ownerId: string;
  projectId?: string | null;
  sessionId?: string | null;
  name: string;
  category: DocumentCategory;
  format: TextDocumentFormat;
  content: string;
  validated?: boolean;
  reproducible?: boolean;
  /** Where its contents came from: the session's provenance and the document's items. */
  provenance?: Provenance;
}

/**
 * Saves an artifact of an agent-team session (a report, a data dictionary, generated code's
 * documentation) as a document of its owner, so it appears on the Documentation page. Callers
 * have already checked that the owner may write to the project; an unknown project id is dropped.
 */
export async function saveSessionDocument(
  deps: { db: Database },
  input: SessionDocumentInput,
): Promise<DocumentWithContent> {
  const store = createDocumentsStore(deps.db);
  const size = checkSize(input.content, DOCUMENT_CONTENT_MAX_BYTES);
  await store.checkQuota(input.ownerId, size);
  const projectId =
    input.projectId && (await store.projectExists(input.projectId)) ? input.projectId : null;
  const id = await store.insert({
    ownerId: input.ownerId,
    projectId,
    sessionId: input.sessionId ?? null,
    name: input.name.trim().slice(0, 200) || 'Untitled',
    category: input.category,
    format: input.format,
    origin: 'session',
    sizeBytes: size,
    content: input.content,
    validated: input.validated ?? false,
    reproducible: input.reproducible ?? false,
    provenance: input.provenance ? { ...input.provenance, projectId } : null,
  });
  const record = await store.find(id, undefined);
  if (!record) throw new Error('saved document not found');
  return withContent(record, true);
}

/**
 * Rules: a user sees their own documents and those of projects they own or are a member of;
 * admins see all. The document's owner and the project's owner may change or delete it (never an
 * account with the viewer role). Attaching to a project needs edit rights on that project.
 */
export function createDocumentsService(deps: {
  store: DocumentsStore;
  projects: ProjectsService;
  uploadLimitBytes: number;
}) {
  const { store, projects } = deps;
  const visibleTo = (user: AuthUser) => (user.role === 'admin' ? undefined : user.id);

  async function load(user: AuthUser, id: string): Promise<DocumentRecord> {
    const record = await store.find(id, visibleTo(user));
    if (!record) throw notFound('Document');
    return record;
  }

  async function loadForChange(user: AuthUser, id: string): Promise<DocumentRecord> {
    const record = await load(user, id);
    if (!canEditRecord(user, record))
      throw forbidden('You can read this document but not change it');
    return record;
  }

  /** 404 if the project is not visible, 403 if the caller may only read it. */
  async function checkProject(user: AuthUser, projectId: string): Promise<void> {
    const { perms } = await projects.load(user, projectId);
    if (!perms.canEdit) throw forbidden('You cannot add documents to this project');
  }

  async function create(
    user: AuthUser,
    input: {
      name: string;
      category: DocumentCategory;
      format: DocumentFormat;
      content: string;
      projectId?: string | null;
      validated?: boolean;
      reproducible?: boolean;
      origin: DocumentOrigin;
      /** The uploaded file when it is not text (a PDF); `content` is then its extracted text. */
      file?: Buffer;
    },
    limit: number,
  ): Promise<DocumentWithContent> {
    await checkCanAdd(user, input.projectId);
    const textSize = checkSize(input.content, limit);
    const size = input.file ? input.file.length : textSize;
    if (!input.file) checkContentFormat(input.format, input.content);
    // The quota counts what is stored: the text, and the file when one is kept (a PDF).
    await store.checkQuota(user.id, textSize + (input.file?.length ?? 0));
    const id = await store.insert({
      ownerId: user.id,
      projectId: input.projectId ?? null,
      sessionId: null,
      name: input.name,
      category: input.category,
      format: input.format,
      origin: input.origin,
      sizeBytes: size,
      content: input.content,
      fileData: input.file ?? null,
      validated: input.validated ?? false,
      reproducible: input.reproducible ?? false,
    });
    return get(user, id);
  }

  /** 403 for viewer accounts and for projects the caller may only read; 404 for hidden ones. */
  async function checkCanAdd(user: AuthUser, projectId: string | null | undefined) {
    if (user.role === 'viewer') throw forbidden('Viewers cannot add documents');
    if (projectId) await checkProject(user, projectId);
  }

  /** The document; a text over DOCUMENT_INLINE_MAX_BYTES is left out and named by contentUrl. */
  async function get(user: AuthUser, id: string): Promise<DocumentWithContent> {
    const record = await store.findForView(id, visibleTo(user));
    if (!record) throw notFound('Document');
    const document = withContent(record, canEditRecord(user, record));
    if (record.row.contentBytes <= DOCUMENT_INLINE_MAX_BYTES) return document;
    return { ...document, content: '', contentUrl: `/api/documents/${id}/content` };
  }

  return {
    async list(user: AuthUser, q: ListInput) {
      const { rows, total, categoryCounts } = await store.list({
        visibleTo: visibleTo(user),
        search: q.search,
        categories: q.category,
        projectId: q.projectId,
        limit: q.limit,
        offset: q.offset,
      });
      return {
        documents: rows.map((r) => toSummary(r, canEditRecord(user, r))),
        total,
        limit: q.limit,
        offset: q.offset,
        categoryCounts,
      };
    },

    get,

    /** The text of a document as a stream of pieces (GET /api/documents/{id}/content). */
    async text(user: AuthUser, id: string) {
      const record = await store.findForView(id, visibleTo(user));
      if (!record) throw notFound('Document');
      return {
        bytes: record.row.contentBytes,
        chunks: store.contentChunks(id, record.row.updatedAt),
      };
    },

    /**
     * Where a visible document's contents came from (404 like reading it otherwise). A document
     * no session saved has only its project and date; one saved before provenance was kept has
     * its session id besides.
     */
    async provenance(user: AuthUser, id: string): Promise<Provenance> {
      const record = await store.findProvenance(id, visibleTo(user));
      if (!record) throw notFound('Document');
      const stored = provenanceSchema.safeParse(record.provenance);
      if (stored.success) return stored.data;
      return {
        ...documentOnlyProvenance({
          projectId: record.projectId,
          created: record.createdAt.toISOString(),
        }),
        sessionId: provenanceSchema.shape.sessionId.safeParse(record.sessionId).data ?? null,
      };
    },

    /** Checked before an upload's file is read (a PDF's text extraction costs time). */
    checkCanAdd,

    /** What a download hands back: the stored file (a PDF's bytes), else the text. */
    async file(user: AuthUser, id: string) {
      const { row } = await load(user, id);
      const stored = row.format === 'pdf' ? await store.fileData(id) : null;
      return { name: row.name, format: row.format, body: stored ?? row.content };
    },

    create: (user: AuthUser, input: CreateInput) =>
      create(user, { ...input, origin: 'editor' }, DOCUMENT_CONTENT_MAX_BYTES),

    upload: (
      user: AuthUser,
      input: {
        name: string;
        category: DocumentCategory;
        format: DocumentFormat;
        content: string;
        projectId?: string;
        file?: Buffer;
      },
    ) => create(user, { ...input, origin: 'upload' }, deps.uploadLimitBytes),

    async update(user: AuthUser, id: string, input: UpdateInput): Promise<DocumentWithContent> {
      const record = await loadForChange(user, id);
      const patch: DocumentPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.category !== undefined) patch.category = input.category;
      if (input.validated !== undefined) patch.validated = input.validated;
      if (input.reproducible !== undefined) patch.reproducible = input.reproducible;
      if (input.projectId !== undefined) {
        if (input.projectId) await checkProject(user, input.projectId);
        patch.projectId = input.projectId;
      }
      if (input.content !== undefined) {
        if (record.row.format === 'pdf') {
          throw badRequest(
            'content: the text of a PDF comes from its file; upload the changed PDF instead',
          );
        }
        patch.sizeBytes = checkSize(input.content, DOCUMENT_CONTENT_MAX_BYTES);
        checkContentFormat(record.row.format, input.content);
        // Counted against the document's owner (a project owner may edit others' documents).
        await store.checkQuota(record.row.ownerId, patch.sizeBytes, utf8Length(record.row.content));
        patch.content = input.content;
      }
      await store.update(id, patch);
      return get(user, id);
    },

    async remove(user: AuthUser, id: string): Promise<void> {
      await loadForChange(user, id);
      await store.remove(id);
    },
  };
}
