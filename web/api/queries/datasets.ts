import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '../../../common/api';
import type {
  CreateDatasetRequest,
  DatasetDataType,
  DatasetSource,
  DatasetListReply,
  DatasetReply,
} from '../../../common/datasets';
import { api, unwrap } from '../client';
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
      unwrap(api.get<DatasetListReply>(`/api/datasets${queryString(query)}`, signal)).then(
        (r) => r.data,
      ),
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
      unwrap(api.post<DatasetReply>('/api/datasets', input)).then((r) => r.data.dataset),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteDataset() {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.delete<MessageReply>(`/api/datasets/${encodeURIComponent(id)}`)),
    onSuccess: () => invalidate(),
  });
}
