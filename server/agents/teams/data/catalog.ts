import type { DatasetSource, DatasetDataType } from '../../../../common/datasets';
import type { DataOrigin, DatasetProfile } from '../../../../common/teams/data';
import type { Workspace } from '../../kit';

/**
 * The datasets catalog entry of a dataset the Data team stored: its fields, record count, date
 * range and kind come from the computed profile.
 */

const SOURCE_OF: Record<DataOrigin | 'derived', DatasetSource> = {
  derived: 'custom',
  // A catalog dataset read as a session's source is not registered again; listed for the type.
  catalog: 'custom',
  upload: 'custom',
  url: 'custom',
  kaggle: 'custom',
  world_bank: 'world_bank',
  fred: 'fred',
  imf: 'imf',
};

/** Time series (one row per period), panel (several), or cross-sectional (no time index). */
export function dataTypeOf(profile: DatasetProfile): DatasetDataType {
  const ts = profile.timeSeries;
  if (!ts) return 'cross_sectional';
  return ts.rowsPerPeriod.max > 1 ? 'panel' : 'time_series';
}

export interface CatalogInput {
  name: string;
  description: string;
  /** 'derived': made by cleaning, integration or feature engineering of stored data. */
  origin: DataOrigin | 'derived';
  format: 'csv' | 'json' | 'parquet';
  license: string;
  citation: string;
  /** Where the data came from (URL, API query, file name); stored, never returned. */
  originDetails: Record<string, unknown>;
  bytes: number;
}

export async function registerDataset(
  workspace: Workspace,
  profile: DatasetProfile,
  input: CatalogInput,
) {
  return workspace.datasets.register({
    name: input.name.slice(0, 200),
    description: input.description.slice(0, 5000),
    source: SOURCE_OF[input.origin],
    dataType: dataTypeOf(profile),
    fields: profile.columns.slice(0, 1000).map((c) => ({
      name: c.name.slice(0, 200),
      type: c.kind,
      description: `${c.storageType}; ${c.count} values, ${c.missing} missing, ${c.distinct} distinct`,
    })),
    recordCount: profile.rowCount,
    dateRange: {
      start: profile.timeSeries?.start ?? null,
      end: profile.timeSeries?.end ?? null,
    },
    format: input.format,
    license: input.license.slice(0, 200),
    integrationLevel: 'full',
    metadata: {
      hasFullText: false,
      citation: input.citation.slice(0, 2000),
      apiAvailable: ['world_bank', 'fred', 'imf', 'kaggle'].includes(input.origin),
    },
    originKind: ['world_bank', 'fred', 'imf', 'kaggle', 'url'].includes(input.origin)
      ? 'api'
      : 'upload',
    originDetails: input.originDetails,
    sizeBytes: input.bytes,
  });
}
