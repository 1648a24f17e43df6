import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '../../../common/api';
import type { SettingsReply, UpdateSettingsRequest } from '../../../common/settings';
import { api, unwrap } from '../client';
import { getAuth } from '../session';

/** Per-user settings (GET/PUT /api/settings) and the account security calls. */
export const settingsKeys = { all: ['settings'] as const };

export function useSettings() {
  return useQuery({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) =>
      unwrap(api.get<SettingsReply>('/api/settings', signal)).then((r) => r.data.settings),
    // The form holds the edits; a background refetch must not reset it.
    refetchOnWindowFocus: false,
  });
}

/** Resolves with the settings as the server stored them (and its confirmation message). */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateSettingsRequest) =>
      unwrap(api.put<SettingsReply>('/api/settings', changes)),
    onSuccess: (reply) => {
      queryClient.setQueryData(settingsKeys.all, reply.data.settings);
      // The shell reads the saved theme under this key (web/components/ThemeModeProvider).
      void queryClient.invalidateQueries({ queryKey: ['theme-preference'] });
    },
  });
}

function refreshTokenOrThrow(): string {
  const auth = getAuth();
  if (!auth) throw new Error('Your session has ended. Please sign in again.');
  return auth.refreshToken;
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      unwrap(
        api.post<MessageReply>('/api/auth/change-password', {
          ...input,
          // The server keeps this session and signs out every other one.
          refreshToken: refreshTokenOrThrow(),
        }),
      ),
  });
}

export function useRevokeOtherSessions() {
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.post<MessageReply & { data?: { revoked?: number } }>(
          '/api/auth/sessions/revoke-others',
          { refreshToken: refreshTokenOrThrow() },
        ),
      ),
  });
}
