import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageReplySchema } from '../../../common/api';
import {
  projectListReplySchema,
  projectMembersReplySchema,
  projectReplySchema,
  type AddProjectMemberRequest,
  type CreateProjectRequest,
  type Project,
  type ProjectSort,
  type ProjectStatus,
  type UpdateProjectRequest,
} from '../../../common/projects';
import { projectRecordReplySchema } from '../../../common/research-record';
import { checkedApi, unwrap } from '../client';
import { dashboardKeys } from './dashboard';
import { queryString } from './query-string';

/** GET /api/projects query as the screens send it (common projectListQuerySchema). */
export interface ProjectListParams {
  search?: string;
  researchArea?: string;
  status?: ProjectStatus;
  sort?: ProjectSort;
  favorite?: boolean;
  limit?: number;
  offset?: number;
}

/** Projects (common/projects.ts routes): list, detail, create, update, delete, favorite, members. */
export const projectKeys = {
  all: ['projects'] as const,
  lists: () => [...projectKeys.all, 'list'] as const,
  list: (query: ProjectListParams) => [...projectKeys.lists(), query] as const,
  detail: (id: string) => [...projectKeys.all, 'detail', id] as const,
  members: (id: string) => [...projectKeys.all, 'members', id] as const,
  record: (id: string) => [...projectKeys.all, 'record', id] as const,
};

export function useProjects(query: ProjectListParams) {
  return useQuery({
    queryKey: projectKeys.list(query),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(projectListReplySchema, `/api/projects${queryString(query)}`, signal),
      ).then((r) => r.data),
    // Keep the last page on screen while the next filter or page loads.
    placeholderData: (previous) => previous,
  });
}

/** How many projects a project selector lists (the API's largest page). */
const PROJECTS_IN_SELECTOR = 200;

/**
 * The projects a selector offers, most recently changed first: every project the caller can
 * read, each with `canEdit` (a start or a move into a project needs it).
 */
export function useSelectableProjects(enabled = true) {
  return useQuery({
    // Under the lists' key, so a change to any project refreshes it; its own shape, its own key.
    queryKey: [...projectKeys.lists(), 'selectable'] as const,
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          projectListReplySchema,
          `/api/projects${queryString({ limit: PROJECTS_IN_SELECTOR, sort: 'recently_updated' })}`,
          signal,
        ),
      ).then((r) => r.data.projects),
    enabled,
    staleTime: 30_000,
  });
}

export function useProject(id: string | undefined) {
  return useQuery({
    queryKey: projectKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(projectReplySchema, `/api/projects/${encodeURIComponent(id ?? '')}`, signal),
      ).then((r) => r.data.project),
    enabled: Boolean(id),
  });
}

/** While a session or workflow of the project runs or waits, its record is read again this often. */
const LIVE_RECORD_REFRESH_MS = 5000;

/**
 * GET /api/projects/:id/record: every session of every team on the project, its workflows,
 * documents, datasets and research questions, with the stage and progress the server computes.
 */
export function useProjectRecord(id: string | undefined) {
  return useQuery({
    queryKey: projectKeys.record(id ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          projectRecordReplySchema,
          `/api/projects/${encodeURIComponent(id ?? '')}/record`,
          signal,
        ),
      ).then((r) => r.record),
    enabled: Boolean(id),
    refetchInterval: (q) => {
      const record = q.state.data;
      const live = (status: string) => status === 'processing' || status === 'waiting_for_input';
      return record &&
        (record.sessions.some((s) => live(s.status)) ||
          record.workflows.some((w) => live(w.status)))
        ? LIVE_RECORD_REFRESH_MS
        : false;
    },
  });
}

export function useProjectMembers(id: string | undefined) {
  return useQuery({
    queryKey: projectKeys.members(id ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          projectMembersReplySchema,
          `/api/projects/${encodeURIComponent(id ?? '')}/members`,
          signal,
        ),
      ).then((r) => r.data.members),
    enabled: Boolean(id),
  });
}

/** After any change: every project list, the changed detail and the dashboard are stale. */
function useInvalidateProjects() {
  const queryClient = useQueryClient();
  return (project?: Project) => {
    if (project) queryClient.setQueryData(projectKeys.detail(project.id), project);
    void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
  };
}

export function useCreateProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: (input: CreateProjectRequest) =>
      unwrap(checkedApi.post(projectReplySchema, '/api/projects', input)).then(
        (r) => r.data.project,
      ),
    onSuccess: (project) => invalidate(project),
  });
}

export function useUpdateProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateProjectRequest }) =>
      unwrap(
        checkedApi.put(projectReplySchema, `/api/projects/${encodeURIComponent(id)}`, changes),
      ).then((r) => r.data.project),
    onSuccess: (project) => invalidate(project),
  });
}

export function useDeleteProject() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(checkedApi.delete(messageReplySchema, `/api/projects/${encodeURIComponent(id)}`)).then(
        () => id,
      ),
    onSuccess: (id) => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(id) });
      invalidate();
    },
  });
}

export function useToggleFavorite() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, favorite }: { id: string; favorite: boolean }) => {
      const path = `/api/projects/${encodeURIComponent(id)}/favorite`;
      const call = favorite
        ? checkedApi.put(projectReplySchema, path)
        : checkedApi.delete(projectReplySchema, path);
      return unwrap(call).then((r) => r.data.project);
    },
    onSuccess: (project) => invalidate(project),
  });
}

export function useAddProjectMember(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddProjectMemberRequest) =>
      unwrap(
        checkedApi.post(
          projectMembersReplySchema,
          `/api/projects/${encodeURIComponent(projectId)}/members`,
          input,
        ),
      ).then((r) => r.data.members),
    onSuccess: (members) => queryClient.setQueryData(projectKeys.members(projectId), members),
  });
}

export function useRemoveProjectMember(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        checkedApi.delete(
          projectMembersReplySchema,
          `/api/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`,
        ),
      ).then((r) => r.data.members),
    onSuccess: (members) => queryClient.setQueryData(projectKeys.members(projectId), members),
  });
}
