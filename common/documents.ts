import { z } from 'zod';
import { pageQuerySchema } from './api';

/**
 * Documents: artifacts saved from agent-team sessions or uploaded, listed on the Documentation
 * page. Content is text (Markdown, plain text, JSON, CSV, LaTeX, BibTeX); an
 * uploaded PDF is kept as it is, and its text, extracted on the server, is its content (for
 * search and the viewer).
 */

/** The Documentation page's category chips (besides 'All Documents'). */
export const DOCUMENT_CATEGORIES = [
  'data_dictionary',
  'research_report',
  'code_documentation',
  'literature_review',
  'model_documentation',
  'validation_report',
  'reproducibility_guide',
] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
export const DOCUMENT_CATEGORY_LABELS: Record<DocumentCategory, string> = {
  data_dictionary: 'Data Dictionaries',
  research_report: 'Research Reports',
  code_documentation: 'Code Documentation',
  literature_review: 'Literature Reviews',
  model_documentation: 'Model Documentation',
  validation_report: 'Validation Reports',
  reproducibility_guide: 'Reproducibility Guides',
};

/** Formats stored and edited as text. */
export const TEXT_DOCUMENT_FORMATS = ['md', 'txt', 'json', 'csv', 'tex', 'bib'] as const;
export type TextDocumentFormat = (typeof TEXT_DOCUMENT_FORMATS)[number];
/** Formats = the accepted upload extensions (without the dot); PDF only by upload. */
export const DOCUMENT_FORMATS = [...TEXT_DOCUMENT_FORMATS, 'pdf'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];
export const DOCUMENT_UPLOAD_EXTENSIONS = DOCUMENT_FORMATS.map((f) => `.${f}`);

/** Largest document content stored, in bytes (UTF-8), for JSON-created documents. */
export const DOCUMENT_CONTENT_MAX_BYTES = 2 * 1024 * 1024;
export const DOCUMENT_NAME_MAX = 200;

/** UTF-8 byte length without Node's Buffer (this file also runs in the browser). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A document as listed. `size` is bytes; `created` is ISO 8601. */
export const documentSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(DOCUMENT_CATEGORIES),
  created: z.string(),
  size: z.number(),
  format: z.enum(DOCUMENT_FORMATS),
  validated: z.boolean(),
  reproducible: z.boolean(),
  /** The project's title, or null when the document belongs to no project. */
  project: z.string().nullable(),
  projectId: z.string().nullable(),
  /** The agent session it was saved from, if any. */
  sessionId: z.string().nullable(),
  /** 'session' (saved by an agent team), 'upload' or 'editor' (created through the API). */
  origin: z.enum(['session', 'upload', 'editor']),
  ownerId: z.string(),
  canEdit: z.boolean(),
});
export type DocumentSummary = z.infer<typeof documentSchema>;

/**
 * Largest text (bytes, UTF-8) sent inside the JSON of GET /api/documents/{id}; a larger document
 * comes with `content: ''` and `contentUrl`, which streams its text.
 */
export const DOCUMENT_INLINE_MAX_BYTES = DOCUMENT_CONTENT_MAX_BYTES;

export const documentWithContentSchema = documentSchema.extend({
  content: z.string(),
  /** Set when the text is too large for JSON: GET it there (text, streamed); content is ''. */
  contentUrl: z.string().optional(),
});
export type DocumentWithContent = z.infer<typeof documentWithContentSchema>;

const categoryField = z.enum(DOCUMENT_CATEGORIES, {
  message: `category must be one of: ${DOCUMENT_CATEGORIES.join(', ')}`,
});
const formatField = z.enum(TEXT_DOCUMENT_FORMATS, {
  message: `format must be one of: ${TEXT_DOCUMENT_FORMATS.join(', ')} (a PDF is uploaded as a file)`,
});
const nameField = z
  .string({ message: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(DOCUMENT_NAME_MAX, `name must be at most ${DOCUMENT_NAME_MAX} characters`);

/** POST /api/documents (JSON). */
export const createDocumentRequestSchema = z.object({
  name: nameField,
  category: categoryField,
  format: formatField.default('md'),
  content: z
    .string({ message: 'content is required' })
    .refine((v) => utf8Length(v) <= DOCUMENT_CONTENT_MAX_BYTES, {
      message: `content must be at most ${DOCUMENT_CONTENT_MAX_BYTES} bytes`,
    }),
  projectId: z.uuid({ message: 'projectId must be a UUID' }).nullable().optional(),
  validated: z.boolean().optional(),
  reproducible: z.boolean().optional(),
});
export type CreateDocumentRequest = z.input<typeof createDocumentRequestSchema>;

/**
 * POST /api/documents/upload: multipart/form-data with one `file` part (.md .txt .json .csv .tex
 * .bib .pdf, at most the server's upload limit; a PDF must be one by its content, and its text
 * becomes the document's content) and optional text fields `category` (default
 * research_report), `projectId`, `name` (default: the sanitised file name).
 */
export const uploadDocumentFieldsSchema = z.object({
  category: categoryField.default('research_report'),
  projectId: z.uuid({ message: 'projectId must be a UUID' }).optional(),
  name: nameField.optional(),
});

/** PUT /api/documents/{id} (PATCH too): metadata and/or content (not of a PDF: its text comes from the file). */
export const updateDocumentRequestSchema = z
  .object({
    name: nameField,
    category: categoryField,
    validated: z.boolean({ message: 'validated must be true or false' }),
    reproducible: z.boolean({ message: 'reproducible must be true or false' }),
    projectId: z.uuid({ message: 'projectId must be a UUID' }).nullable(),
    content: createDocumentRequestSchema.shape.content,
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'nothing to update: send at least one document field',
  });
export type UpdateDocumentRequest = z.input<typeof updateDocumentRequestSchema>;

const blankToUndefined = (v: unknown) =>
  typeof v === 'string' && (v.trim() === '' || v === 'all') ? undefined : v;

/** 'a' or 'a,b' -> ['a', 'b']; blank or 'all' -> undefined. */
const commaList = (v: unknown) => {
  const value = blankToUndefined(v);
  return typeof value === 'string' ? value.split(',').map((part) => part.trim()) : value;
};

/**
 * GET /api/documents query: search over name, project title and the text (a PDF's extracted
 * text included); newest first. `category` takes
 * one category or several separated by commas (a Documentation tab groups several).
 */
export const documentListQuerySchema = pageQuerySchema.extend({
  search: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  category: z.preprocess(
    commaList,
    z
      .array(categoryField)
      .max(DOCUMENT_CATEGORIES.length, { message: 'category lists too many categories' })
      .optional(),
  ),
  projectId: z.preprocess(
    blankToUndefined,
    z.uuid({ message: 'projectId must be a UUID' }).optional(),
  ),
});
export type DocumentListQuery = z.input<typeof documentListQuerySchema>;

export const documentListReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    documents: z.array(documentSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
    /** Counts per category over the caller's visible documents (ignoring the category filter). */
    categoryCounts: z.record(z.string(), z.number()),
  }),
});
export type DocumentListReply = z.infer<typeof documentListReplySchema>;

export const documentReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({ document: documentWithContentSchema }),
});
export type DocumentReply = z.infer<typeof documentReplySchema>;

/**
 * Routes (`user` access). Visible: the caller's own documents and those of projects the caller
 * is a member of; admins see all. Viewer-role accounts cannot create or upload (403).
 * GET    /api/documents               documentListQuerySchema -> documentListReplySchema
 * POST   /api/documents               createDocumentRequestSchema -> 201 documentReplySchema
 * POST   /api/documents/upload        multipart (see uploadDocumentFieldsSchema) -> 201 documentReplySchema
 * GET    /api/documents/{id}          -> documentReplySchema (with content)
 * GET    /api/documents/{id}/content  -> the text, streamed (text/plain; named by contentUrl)
 * GET    /api/documents/{id}/download -> the file as uploaded, a PDF too (Content-Disposition attachment)
 * GET    /api/documents/{id}/provenance -> provenanceReplySchema (common/provenance.ts)
 * PUT    /api/documents/{id}          updateDocumentRequestSchema -> documentReplySchema
 * DELETE /api/documents/{id}          -> messageReplySchema
 */
