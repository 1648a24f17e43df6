import { z } from 'zod';
import { pageQuerySchema } from './api';

/** The dataset catalog: its entries, their sources and types, and the list's filters. */

export const DATASET_SOURCES = [
  'econlit',
  'repec',
  'ssrn',
  'google_scholar',
  'web_of_science',
  'scopus',
  'nber',
  'aea',
  'bls',
  'fred',
  'census',
  'world_bank',
  'imf',
  'custom',
] as const;
export type DatasetSource = (typeof DATASET_SOURCES)[number];
export const DATASET_SOURCE_LABELS: Record<DatasetSource, string> = {
  econlit: 'EconLit',
  repec: 'RePEc',
  ssrn: 'SSRN',
  google_scholar: 'Google Scholar',
  web_of_science: 'Web of Science',
  scopus: 'Scopus',
  nber: 'NBER',
  aea: 'AEA',
  bls: 'BLS',
  fred: 'FRED',
  census: 'Census',
  world_bank: 'World Bank',
  imf: 'IMF',
  custom: 'Custom',
};

/** What kind of data an entry holds; literature databases are `bibliographic`. */
export const DATASET_DATA_TYPES = [
  'time_series',
  'cross_sectional',
  'panel',
  'bibliographic',
  'text',
  'other',
] as const;
export type DatasetDataType = (typeof DATASET_DATA_TYPES)[number];
export const DATASET_DATA_TYPE_LABELS: Record<DatasetDataType, string> = {
  time_series: 'Time series',
  cross_sectional: 'Cross-sectional',
  panel: 'Panel',
  bibliographic: 'Bibliographic',
  text: 'Text',
  other: 'Other',
};

export const INTEGRATION_LEVELS = ['full', 'partial'] as const;
export type IntegrationLevel = (typeof INTEGRATION_LEVELS)[number];

export const DATASET_NAME_MAX = 200;
export const DATASET_DESCRIPTION_MAX = 5000;
export const DATASET_FIELDS_MAX = 1000;

/** One column/variable of a dataset. */
export const datasetFieldSchema = z.object({
  name: z.string().trim().min(1, 'fields.name is required').max(200),
  type: z.string().trim().max(50).default(''),
  description: z.string().trim().max(1000).default(''),
});
export type DatasetField = z.infer<typeof datasetFieldSchema>;

/** ISO dates (YYYY-MM-DD) or free period labels (e.g. 1990Q1); either end may be null. */
export const dateRangeSchema = z.object({
  start: z.string().trim().max(40).nullable(),
  end: z.string().trim().max(40).nullable(),
});
export type DateRange = z.infer<typeof dateRangeSchema>;

export const datasetMetadataSchema = z.object({
  hasFullText: z.boolean(),
  citation: z.string(),
  apiAvailable: z.boolean(),
});
export type DatasetMetadata = z.infer<typeof datasetMetadataSchema>;

/** A catalog entry as the API returns it. Dates are ISO 8601 strings. */
export const datasetSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source: z.enum(DATASET_SOURCES),
  dataType: z.enum(DATASET_DATA_TYPES),
  fields: z.array(datasetFieldSchema),
  recordCount: z.number().nullable(),
  dateRange: dateRangeSchema,
  dateAdded: z.string(),
  lastUpdated: z.string(),
  /** File or transport format, e.g. csv, json, parquet, api. */
  format: z.string(),
  license: z.string(),
  integrationLevel: z.enum(INTEGRATION_LEVELS),
  metadata: datasetMetadataSchema,
  ownerId: z.string(),
  /** Whether the caller may edit/delete it (its owner, unless the account has the viewer role). */
  canEdit: z.boolean(),
});
export type Dataset = z.infer<typeof datasetSchema>;

const sourceField = z.enum(DATASET_SOURCES, {
  message: `source must be one of: ${DATASET_SOURCES.join(', ')}`,
});
const dataTypeField = z.enum(DATASET_DATA_TYPES, {
  message: `dataType must be one of: ${DATASET_DATA_TYPES.join(', ')}`,
});

const editable = {
  name: z
    .string({ message: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(DATASET_NAME_MAX, `name must be at most ${DATASET_NAME_MAX} characters`),
  description: z
    .string()
    .trim()
    .max(
      DATASET_DESCRIPTION_MAX,
      `description must be at most ${DATASET_DESCRIPTION_MAX} characters`,
    ),
  source: sourceField,
  dataType: dataTypeField,
  fields: z
    .array(datasetFieldSchema)
    .max(DATASET_FIELDS_MAX, `fields may hold at most ${DATASET_FIELDS_MAX} items`),
  recordCount: z
    .number({ message: 'recordCount must be a number' })
    .int('recordCount must be a whole number')
    .min(0, 'recordCount must be >= 0')
    .nullable(),
  dateRange: dateRangeSchema,
  format: z.string().trim().max(50, 'format must be at most 50 characters'),
  license: z.string().trim().max(200, 'license must be at most 200 characters'),
  integrationLevel: z.enum(INTEGRATION_LEVELS, {
    message: 'integrationLevel must be full or partial',
  }),
  metadata: z
    .object({
      hasFullText: z.boolean(),
      citation: z.string().trim().max(2000, 'metadata.citation must be at most 2000 characters'),
      apiAvailable: z.boolean(),
    })
    .partial(),
};

/**
 * POST /api/datasets: name, source and dataType required. Defaults: description '', fields [],
 * recordCount null, dateRange {null,null}, format '', license '', integrationLevel partial,
 * metadata {hasFullText false, citation '', apiAvailable false}.
 */
export const createDatasetRequestSchema = z.object({
  name: editable.name,
  source: editable.source,
  dataType: editable.dataType,
  description: editable.description.optional(),
  fields: editable.fields.optional(),
  recordCount: editable.recordCount.optional(),
  dateRange: editable.dateRange.optional(),
  format: editable.format.optional(),
  license: editable.license.optional(),
  integrationLevel: editable.integrationLevel.optional(),
  metadata: editable.metadata.optional(),
});
export type CreateDatasetRequest = z.input<typeof createDatasetRequestSchema>;

/** PUT /api/datasets/{id} (PATCH too): any subset. */
export const updateDatasetRequestSchema = z
  .object(editable)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'nothing to update: send at least one dataset field',
  });
export type UpdateDatasetRequest = z.input<typeof updateDatasetRequestSchema>;

const blankToUndefined = (v: unknown) =>
  typeof v === 'string' && (v.trim() === '' || v === 'all') ? undefined : v;

/** GET /api/datasets query: a filter that is omitted, blank or 'all' means no filter. */
export const datasetListQuerySchema = pageQuerySchema.extend({
  search: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  source: z.preprocess(blankToUndefined, sourceField.optional()),
  dataType: z.preprocess(blankToUndefined, dataTypeField.optional()),
  /** Only the caller's own entries ('mine') or all visible entries (default). */
  scope: z.preprocess(blankToUndefined, z.enum(['mine', 'visible']).default('visible')),
});
export type DatasetListQuery = z.input<typeof datasetListQuerySchema>;

export const datasetListReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    datasets: z.array(datasetSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
});
export type DatasetListReply = z.infer<typeof datasetListReplySchema>;

export const datasetReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({ dataset: datasetSchema }),
});
export type DatasetReply = z.infer<typeof datasetReplySchema>;

/**
 * Routes (all `user` access). Visible entries: the caller's own, plus those used by a project
 * the caller is a member of; admins see all. Sorted by dateAdded descending.
 * GET    /api/datasets          datasetListQuerySchema -> datasetListReplySchema
 * POST   /api/datasets          createDatasetRequestSchema -> 201 datasetReplySchema (viewer role: 403)
 * GET    /api/datasets/{id}     -> datasetReplySchema
 * PUT    /api/datasets/{id}     updateDatasetRequestSchema -> datasetReplySchema (owner only)
 * DELETE /api/datasets/{id}     owner only -> messageReplySchema
 */
