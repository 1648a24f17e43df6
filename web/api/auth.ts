import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageReplySchema, type MessageReply } from '../../common/api';
import {
  loginReplySchema,
  profileReplySchema,
  type LoginReply,
  type LoginRequest,
  type ProfileReply,
  type RegisterRequest,
} from '../../common/auth';
import { checkedApi, isFailure, type ApiResult } from './client';
import { clearSession, getAuth, setAuth, setUser } from './session';

/**
 * Account calls and the hooks the pages use. Sign-in stores the four session
 * items; sign-out revokes the refresh token on the server and removes them.
 */

export function login(input: LoginRequest): Promise<ApiResult<LoginReply>> {
  return checkedApi.post(loginReplySchema, '/api/auth/login', input).then((reply) => {
    if (!isFailure(reply)) {
      setAuth(reply.data.tokens);
      setUser(reply.data.user);
    }
    return reply;
  });
}

export function register(input: RegisterRequest): Promise<ApiResult<MessageReply>> {
  return checkedApi.post(messageReplySchema, '/api/auth/register', input);
}

/** Revokes the refresh token (best effort: the local session is removed either way). */
export async function logout(): Promise<void> {
  const auth = getAuth();
  try {
    if (auth)
      await checkedApi.post(messageReplySchema, '/api/auth/logout', {
        refreshToken: auth.refreshToken,
      });
  } finally {
    clearSession();
  }
}

export function fetchProfile(signal?: AbortSignal): Promise<ApiResult<ProfileReply>> {
  return checkedApi.get(profileReplySchema, '/api/auth/profile', signal);
}

/** Signs in; the caller navigates on success and shows `failureText` on failure. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (reply) => {
      if (!isFailure(reply)) queryClient.clear();
    },
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}

/** Signs out and forgets every cached server answer of the previous user. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => queryClient.clear(),
  });
}
