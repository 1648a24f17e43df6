import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageReplySchema } from '../../../common/api';
import {
  connectionTestReplySchema,
  modelStatusReplySchema,
  serverModelsReplySchema,
  settingsReplySchema,
  type ConnectionTest,
  type ModelDraft,
  type ModelStatus,
  type ServerModels,
  type UpdateSettingsRequest,
} from '../../../common/settings';
import { checkedApi, unwrap } from '../client';
import { getAuth } from '../session';

/** Per-user settings (GET/PUT /api/settings) and the account security calls. */
export const settingsKeys = { all: ['settings'] as const };

/** The model status depends on the saved settings and the server's configuration. */
export const modelStatusKeys = {
  all: ['model-status'] as const,
  status: (draft: ModelDraft | undefined) => [...modelStatusKeys.all, draft ?? null] as const,
  serverModels: (draft: ModelDraft | undefined) =>
    [...modelStatusKeys.all, 'server-models', draft ?? null] as const,
};

const hasFields = (draft: ModelDraft | undefined): draft is ModelDraft =>
  draft !== undefined && Object.values(draft).some((v) => v !== undefined);

/**
 * Which provider and exact model id a session of the signed-in user would use, or why none can
 * (`configured: false` with a `hint` saying how to fix it). Without an argument: the saved
 * settings (what a team screen asks before Start). With a draft: unsaved Settings choices laid
 * over the saved ones (nothing is stored).
 */
export function useModelStatus(draft?: ModelDraft, options: { enabled?: boolean } = {}) {
  const sent = hasFields(draft) ? draft : undefined;
  return useQuery<ModelStatus>({
    queryKey: modelStatusKeys.status(sent),
    queryFn: ({ signal }) =>
      unwrap(
        sent
          ? checkedApi.post(modelStatusReplySchema, '/api/settings/model-status', sent)
          : checkedApi.get(modelStatusReplySchema, '/api/settings/model-status', signal),
      ).then((r) => r.data.status),
    enabled: options.enabled ?? true,
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
}

/** One tiny model call with the (draft) settings: latency, or the provider's error text. */
export function useTestConnection() {
  return useMutation<ConnectionTest, Error, ModelDraft | undefined>({
    mutationFn: (draft) =>
      unwrap(
        checkedApi.post(
          connectionTestReplySchema,
          '/api/settings/test-connection',
          hasFields(draft) ? draft : {},
        ),
      ).then((r) => r.data.result),
  });
}

/** The model ids an OpenAI-compatible server lists (its GET /models). */
export function useServerModels(draft: ModelDraft | undefined, enabled: boolean) {
  const sent = hasFields(draft) ? draft : undefined;
  return useQuery<ServerModels>({
    queryKey: modelStatusKeys.serverModels(sent),
    queryFn: () =>
      unwrap(checkedApi.post(serverModelsReplySchema, '/api/settings/models', sent ?? {})).then(
        (r) => r.data.result,
      ),
    enabled,
    staleTime: 60_000,
  });
}

export function useSettings() {
  return useQuery({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(settingsReplySchema, '/api/settings', signal)).then(
        (r) => r.data.settings,
      ),
    // The form holds the edits; a background refetch must not reset it.
    refetchOnWindowFocus: false,
  });
}

/** Resolves with the settings as the server stored them (and its confirmation message). */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateSettingsRequest) =>
      unwrap(checkedApi.put(settingsReplySchema, '/api/settings', changes)),
    onSuccess: (reply) => {
      queryClient.setQueryData(settingsKeys.all, reply.data.settings);
      // The shell reads the saved theme under this key (web/components/ThemeModeProvider).
      void queryClient.invalidateQueries({ queryKey: ['theme-preference'] });
      void queryClient.invalidateQueries({ queryKey: modelStatusKeys.all });
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
        checkedApi.post(messageReplySchema, '/api/auth/change-password', {
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
        checkedApi.post(messageReplySchema, '/api/auth/sessions/revoke-others', {
          refreshToken: refreshTokenOrThrow(),
        }),
      ),
  });
}
