import { z } from 'zod';

/**
 * Downloading a catalog dataset's stored data (GET /api/datasets/:id/download?format=...): CSV
 * and Parquet, both written by DuckDB from the stored copy. Stata .dta is not offered: no
 * maintained JavaScript library writes it (docs/architecture.md, "Dataset downloads").
 */
export const DATASET_DOWNLOAD_FORMATS = ['csv', 'parquet'] as const;
export type DatasetDownloadFormat = (typeof DATASET_DOWNLOAD_FORMATS)[number];

export const DATASET_DOWNLOAD_LABELS: Record<DatasetDownloadFormat, string> = {
  csv: 'CSV',
  parquet: 'Parquet',
};

export const datasetDownloadQuerySchema = z.object({
  format: z
    .enum(DATASET_DOWNLOAD_FORMATS, {
      message:
        'format must be csv or parquet (Stata .dta is not offered: read the CSV with import delimited)',
    })
    .default('csv'),
});
export type DatasetDownloadQuery = z.infer<typeof datasetDownloadQuerySchema>;
