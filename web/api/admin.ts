import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '../../common/api';
import type {
  SetUserPasswordRequest,
  UpdateUserRequest,
  UpdateUserStatusRequest,
  User,
  UserReply,
} from '../../common/auth';
import type { ExportTokenReply, WaitingListReply } from '../../common/waiting-list';
import { api, unwrap, type ApiResult } from './client';

/** Administrator calls (platform.md §6, §7): users, their approval, and the waiting list. */

export interface UsersListReply {
  success: true;
  data: { users: User[]; total: number };
}

export const adminKeys = {
  users: ['admin', 'users'] as const,
  waitingList: ['admin', 'waiting-list'] as const,
};

export function useAdminUsers() {
  return useQuery({
    queryKey: adminKeys.users,
    queryFn: ({ signal }) => unwrap(api.get<UsersListReply>('/api/auth/users?limit=500', signal)),
  });
}

export function useWaitingList() {
  return useQuery({
    queryKey: adminKeys.waitingList,
    queryFn: ({ signal }) =>
      unwrap(api.get<WaitingListReply>('/api/waiting-list?limit=1000', signal)),
  });
}

/** Approve or reject: returns the raw result so the page can show the spec's exact messages. */
export function decideUser(
  id: string,
  status: UpdateUserStatusRequest['status'],
): Promise<ApiResult<UserReply>> {
  return api.put<UserReply>(`/api/auth/users/${encodeURIComponent(id)}/status`, { status });
}

export function updateUser(id: string, changes: UpdateUserRequest): Promise<ApiResult<UserReply>> {
  return api.put<UserReply>(`/api/auth/users/${encodeURIComponent(id)}`, changes);
}

/** Suspends an approved account (ending all of its sessions) or lifts the suspension. */
export function suspendUser(id: string, suspended: boolean): Promise<ApiResult<UserReply>> {
  return api.put<UserReply>(`/api/auth/users/${encodeURIComponent(id)}/suspension`, {
    suspended,
  });
}

export function useDecideUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: UpdateUserStatusRequest['status'] }) =>
      decideUser(id, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateUserRequest }) =>
      updateUser(id, changes),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

/** Sets a new password for a user who lost theirs; every session of that user ends. */
export function useSetUserPassword() {
  return useMutation({
    mutationFn: ({ id, newPassword }: { id: string } & SetUserPasswordRequest) =>
      api.post<MessageReply>(`/api/auth/users/${encodeURIComponent(id)}/password`, {
        newPassword,
      }),
  });
}

/**
 * A download link cannot send the bearer token, so the export first asks for a short-lived
 * download token and then follows the URL that carries it.
 */
export function requestExportUrl(): Promise<ApiResult<ExportTokenReply>> {
  return api.post<ExportTokenReply>('/api/waiting-list/export-token');
}
