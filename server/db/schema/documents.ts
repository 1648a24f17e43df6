import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { DocumentCategory, DocumentFormat } from '../../../common/documents';
import type { Provenance } from '../../../common/provenance';
import { users } from './accounts';
import { projects } from './projects';

export type DocumentOrigin = 'session' | 'upload' | 'editor';

/** Binary bytes (PGlite hands back a Uint8Array, node-postgres a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * A document (common/documents.ts). Content lives in the row (documents are small files), so every
 * process of a scale-out deployment sees it without shared disk.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    /**
     * The agent session it came from (text: the runtime owns the id format); no foreign key so
     * sessions can be purged independently.
     */
    sessionId: text('session_id'),
    name: text('name').notNull(),
    category: text('category').$type<DocumentCategory>().notNull(),
    format: text('format').$type<DocumentFormat>().notNull(),
    origin: text('origin').$type<DocumentOrigin>().notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** The text: the file itself, or for a PDF the text extracted from it (for search). */
    content: text('content').notNull(),
    /** The uploaded file when it is not text (PDF): what a download hands back. */
    fileData: bytea('file_data'),
    /**
     * Where the document's contents came from (common/provenance.ts), written when a session
     * saves it; null for documents uploaded or created by hand, and for those saved before.
     */
    provenance: jsonb('provenance').$type<Provenance>(),
    validated: boolean('validated').notNull().default(false),
    reproducible: boolean('reproducible').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('documents_owner_idx').on(t.ownerId),
    index('documents_project_idx').on(t.projectId),
    index('documents_created_idx').on(t.createdAt),
  ],
);
export type DocumentRow = typeof documents.$inferSelect;
