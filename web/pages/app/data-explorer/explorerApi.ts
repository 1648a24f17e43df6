import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DATA_TEAM_BASE,
  datasetChartReplySchema,
  datasetRowsReplySchema,
  derivedDatasetReplySchema,
  type ChartRequest,
  type ExplorerFetchRequest,
  type FeaturesRequest,
  type IntegrateRequest,
  type ReshapeRequest,
} from '../../../../common/teams/data';
import type { DatasetDownloadFormat } from '../../../../common/dataset-export';
import { checkedApi, refreshTokens, unwrap } from '../../../api/client';
import { getAuth } from '../../../api/session';
import { saveBlob } from '../../../components/saveFile';
import { datasetKeys } from '../../../api/queries/datasets';
import { dashboardKeys } from '../../../api/queries/dashboard';

/**
 * The Data Explorer's calls to the Data team's dataset routes (common/teams/data.ts): a page of
 * rows, a chart, integration, feature engineering, and adding a dataset by upload or from an API.
 */

const base = (id: string) => `${DATA_TEAM_BASE}/datasets/${encodeURIComponent(id)}`;

/** Numeric storage types of DuckDB (what charts may put on a value axis). */
export const isNumericType = (type: string) =>
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL)/i.test(
    type,
  );

export function useDatasetRows(id: string | undefined, limit: number, offset: number) {
  return useQuery({
    queryKey: [...datasetKeys.all, 'rows', id, limit, offset] as const,
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          datasetRowsReplySchema,
          `${base(id!)}/rows?limit=${limit}&offset=${offset}`,
          signal,
        ),
      ).then((r) => r.data),
    enabled: id !== undefined,
    placeholderData: (previous) => previous,
    retry: false,
  });
}

/** The columns of a stored dataset (read from a one-row page). */
export function useDatasetColumns(id: string | undefined) {
  const rows = useDatasetRows(id, 1, 0);
  return { ...rows, columns: rows.data?.columns ?? [] };
}

export function useChart() {
  return useMutation({
    mutationFn: ({ id, request }: { id: string; request: ChartRequest }) =>
      unwrap(checkedApi.post(datasetChartReplySchema, `${base(id)}/chart`, request)).then(
        (r) => r.data.chart,
      ),
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: datasetKeys.all });
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
  };
}

export function useIntegrate() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (request: IntegrateRequest) =>
      unwrap(
        checkedApi.post(derivedDatasetReplySchema, `${DATA_TEAM_BASE}/datasets/integrate`, request),
      ).then((r) => r.data),
    onSuccess: invalidate,
  });
}

export function useFeatures() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, request }: { id: string; request: FeaturesRequest }) =>
      unwrap(checkedApi.post(derivedDatasetReplySchema, `${base(id)}/features`, request)).then(
        (r) => r.data,
      ),
    onSuccess: invalidate,
  });
}

export function useReshape() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, request }: { id: string; request: ReshapeRequest }) =>
      unwrap(checkedApi.post(derivedDatasetReplySchema, `${base(id)}/reshape`, request)).then(
        (r) => r.data,
      ),
    onSuccess: invalidate,
  });
}

export function useExplorerUpload() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        checkedApi.upload(derivedDatasetReplySchema, `${DATA_TEAM_BASE}/datasets/upload`, form),
      ).then((r) => r.data),
    onSuccess: invalidate,
  });
}

export function useExplorerFetch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (request: ExplorerFetchRequest) =>
      unwrap(
        checkedApi.post(derivedDatasetReplySchema, `${DATA_TEAM_BASE}/datasets/fetch`, request),
      ).then((r) => r.data),
    onSuccess: invalidate,
  });
}

/**
 * Downloads a dataset's stored data as CSV or Parquet (GET /api/datasets/:id/download). The
 * endpoint needs the bearer token, so the browser cannot follow a plain link: fetch it (one
 * refresh and retry on 401, like the API client) and save it under the server's file name.
 */
export async function downloadDataset(
  dataset: { id: string; name: string },
  format: DatasetDownloadFormat,
): Promise<void> {
  const path = `/api/datasets/${encodeURIComponent(dataset.id)}/download?format=${format}`;
  const get = () => {
    const auth = getAuth();
    return fetch(path, { headers: auth ? { Authorization: `Bearer ${auth.accessToken}` } : {} });
  };
  let res = await get();
  if (res.status === 401 && (await refreshTokens())) res = await get();
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
    throw new Error(
      typeof body?.message === 'string' ? body.message : `Download failed (HTTP ${res.status})`,
    );
  }
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  saveBlob(blob, utf8 ? decodeURIComponent(utf8) : `${dataset.name}.${format}`);
}
