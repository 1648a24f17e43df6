import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  workflowListReplySchema,
  workflowReplySchema,
  type CreateWorkflowRequest,
  type Workflow,
  type WorkflowListReply,
  type WorkflowStatus,
} from '../../../common/workflows';
import { checkedApi, unwrap } from '../client';
import { sessionKeys } from './sessions';
import { queryString } from './query-string';

/** Customized workflows (common/workflows.ts routes): list by project, one, create, start, cancel. */
export const workflowKeys = {
  all: ['workflows'] as const,
  byProject: (projectId: string) => [...workflowKeys.all, 'project', projectId] as const,
  detail: (id: string) => [...workflowKeys.all, 'detail', id] as const,
};

/** A workflow that can still change without the user: it is followed every 2 s. */
export const WORKFLOW_POLL_MS = 2000;
export function isWorkflowLive(status: WorkflowStatus): boolean {
  return status === 'processing' || status === 'waiting_for_input';
}

/** GET /api/workflows?projectId=: the project's workflows, newest first. */
export function useProjectWorkflows(projectId: string | undefined) {
  return useQuery({
    queryKey: workflowKeys.byProject(projectId ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          workflowListReplySchema,
          `/api/workflows${queryString({ projectId, limit: 50 })}`,
          signal,
        ),
      ),
    enabled: Boolean(projectId),
    refetchInterval: (q) =>
      q.state.data?.workflows.some((w) => isWorkflowLive(w.status)) ? WORKFLOW_POLL_MS * 5 : false,
  });
}

/**
 * GET /api/workflows/:id, read again every 2 s while it runs or waits; each read also updates the
 * workflow in its project's cached list, so the list never shows an older status than the run.
 */
export function useWorkflow(id: string | undefined) {
  const client = useQueryClient();
  return useQuery({
    queryKey: workflowKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          workflowReplySchema,
          `/api/workflows/${encodeURIComponent(id ?? '')}`,
          signal,
        ),
      ).then((r) => {
        const workflow = r.workflow;
        client.setQueryData<WorkflowListReply>(
          workflowKeys.byProject(workflow.projectId),
          (list) =>
            list
              ? {
                  ...list,
                  workflows: list.workflows.map((w) => (w.id === workflow.id ? workflow : w)),
                }
              : list,
        );
        return workflow;
      }),
    enabled: Boolean(id),
    refetchInterval: (q) =>
      q.state.data && isWorkflowLive(q.state.data.status) ? WORKFLOW_POLL_MS : false,
    retry: false,
  });
}

function useWorkflowChanged() {
  const client = useQueryClient();
  return (workflow: Workflow) => {
    client.setQueryData(workflowKeys.detail(workflow.id), workflow);
    void client.invalidateQueries({ queryKey: workflowKeys.byProject(workflow.projectId) });
    void client.invalidateQueries({ queryKey: sessionKeys.all });
  };
}

/** POST /api/workflows (201 with the workflow, not started yet). */
export function useCreateWorkflow() {
  const changed = useWorkflowChanged();
  return useMutation({
    mutationFn: (body: CreateWorkflowRequest) =>
      unwrap(checkedApi.post(workflowReplySchema, '/api/workflows', body)).then((r) => r.workflow),
    onSuccess: changed,
  });
}

/** POST /api/workflows/:id/start or /cancel. */
export function useWorkflowAction(action: 'start' | 'cancel') {
  const changed = useWorkflowChanged();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(
        checkedApi.post(workflowReplySchema, `/api/workflows/${encodeURIComponent(id)}/${action}`),
      ).then((r) => r.workflow),
    onSuccess: changed,
  });
}
