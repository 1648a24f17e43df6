import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type {
  DatasetDataType,
  DatasetField,
  DatasetMetadata,
  DatasetSource,
  IntegrationLevel,
} from '../../../common/datasets';
import { users } from './accounts';

/** How a catalog entry came to be; the Data team records uploads and API fetches. */
export type DatasetOriginKind = 'manual' | 'upload' | 'api';

/** A catalog dataset (common/datasets.ts). dateAdded = created_at, lastUpdated = updated_at. */
export const datasets = pgTable(
  'datasets',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    source: text('source').$type<DatasetSource>().notNull(),
    dataType: text('data_type').$type<DatasetDataType>().notNull(),
    fields: jsonb('fields').$type<DatasetField[]>().notNull().default([]),
    recordCount: bigint('record_count', { mode: 'number' }),
    dateStart: text('date_start'),
    dateEnd: text('date_end'),
    format: text('format').notNull().default(''),
    license: text('license').notNull().default(''),
    integrationLevel: text('integration_level')
      .$type<IntegrationLevel>()
      .notNull()
      .default('partial'),
    metadata: jsonb('metadata')
      .$type<DatasetMetadata>()
      .notNull()
      .default({ hasFullText: false, citation: '', apiAvailable: false }),
    originKind: text('origin_kind').$type<DatasetOriginKind>().notNull().default('manual'),
    /** Whatever the creator needs to find the data again (file path, API query); not shown. */
    originDetails: jsonb('origin_details').$type<Record<string, unknown>>(),
    /**
     * Bytes this entry takes in its owner's storage quota: the stored data file when the Data
     * team keeps one, otherwise the catalog entry itself.
     */
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('datasets_owner_idx').on(t.ownerId), index('datasets_created_idx').on(t.createdAt)],
);
export type DatasetRow = typeof datasets.$inferSelect;
