import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageReplySchema } from '../../common/api';
import {
  userReplySchema,
  usersReplySchema,
  type SetUserPasswordRequest,
  type UpdateUserRequest,
  type UpdateUserStatusRequest,
  type UserReply,
} from '../../common/auth';
import {
  exportTokenReplySchema,
  waitingListReplySchema,
  type ExportTokenReply,
} from '../../common/waiting-list';
import { checkedApi, unwrap, type ApiResult } from './client';

/** Administrator calls: users, their approval, and the waiting list. */

export const adminKeys = {
  users: ['admin', 'users'] as const,
  waitingList: ['admin', 'waiting-list'] as const,
};

export function useAdminUsers() {
  return useQuery({
    queryKey: adminKeys.users,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(usersReplySchema, '/api/auth/users?limit=500', signal)),
  });
}

export function useWaitingList() {
  return useQuery({
    queryKey: adminKeys.waitingList,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(waitingListReplySchema, '/api/waiting-list?limit=1000', signal)),
  });
}

/** Approve or reject: returns the raw result so the page can show the spec's exact messages. */
export function decideUser(
  id: string,
  status: UpdateUserStatusRequest['status'],
): Promise<ApiResult<UserReply>> {
  return checkedApi.put(userReplySchema, `/api/auth/users/${encodeURIComponent(id)}/status`, {
    status,
  });
}

export function updateUser(id: string, changes: UpdateUserRequest): Promise<ApiResult<UserReply>> {
  return checkedApi.put(userReplySchema, `/api/auth/users/${encodeURIComponent(id)}`, changes);
}

/** Suspends an approved account (ending all of its sessions) or lifts the suspension. */
export function suspendUser(id: string, suspended: boolean): Promise<ApiResult<UserReply>> {
  return checkedApi.put(userReplySchema, `/api/auth/users/${encodeURIComponent(id)}/suspension`, {
    suspended,
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
      checkedApi.post(messageReplySchema, `/api/auth/users/${encodeURIComponent(id)}/password`, {
        newPassword,
      }),
  });
}

/**
 * A download link cannot send the bearer token, so the export first asks for a short-lived
 * download token and then follows the URL that carries it.
 */
export function requestExportUrl(): Promise<ApiResult<ExportTokenReply>> {
  return checkedApi.post(exportTokenReplySchema, '/api/waiting-list/export-token');
}
