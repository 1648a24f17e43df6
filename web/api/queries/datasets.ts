import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageReplySchema } from '../../../common/api';
import {
  datasetListReplySchema,
  datasetReplySchema,
  type CreateDatasetRequest,
  type DatasetDataType,
  type DatasetSource,
} from '../../../common/datasets';
import { checkedApi, unwrap } from '../client';
import { dashboardKeys } from './dashboard';
import { queryString } from './query-string';

/** GET /api/datasets query as the screens send it (common datasetListQuerySchema). */
export interface DatasetListParams {
  search?: string;
  source?: DatasetSource;
  dataType?: DatasetDataType;
  scope?: 'mine' | 'visible';
  limit?: number;
  offset?: number;
}

/** The dataset catalog (common/datasets.ts routes). */
export const datasetKeys = {
  all: ['datasets'] as const,
  lists: () => [...datasetKeys.all, 'list'] as const,
  list: (query: DatasetListParams) => [...datasetKeys.lists(), query] as const,
};

export function useDatasets(query: DatasetListParams, enabled = true) {
  return useQuery({
    queryKey: datasetKeys.list(query),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(datasetListReplySchema, `/api/datasets${queryString(query)}`, signal),
      ).then((r) => r.data),
    placeholderData: (previous) => previous,
    enabled,
  });
}

function useInvalidateDatasets() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: datasetKeys.all });
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
  };
}

export function useCreateDataset() {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: (input: CreateDatasetRequest) =>
      unwrap(checkedApi.post(datasetReplySchema, '/api/datasets', input)).then(
        (r) => r.data.dataset,
      ),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteDataset() {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(checkedApi.delete(messageReplySchema, `/api/datasets/${encodeURIComponent(id)}`)),
    onSuccess: () => invalidate(),
  });
}
