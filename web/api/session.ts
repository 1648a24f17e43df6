import { useMemo, useSyncExternalStore } from 'react';
import type { SessionUser, Tokens } from '../../common/auth';

/**
 * The browser's session data: four items in localStorage, accessToken,
 * refreshToken, user (holds displayName and email, plus id and role) and isAuthenticated.
 * The 'auth' entry is the token pair; the 'user' entry is the user.
 */
export const SESSION_KEYS = ['accessToken', 'refreshToken', 'user', 'isAuthenticated'] as const;

export type StoredUser = Pick<SessionUser, 'displayName' | 'email'> &
  Partial<Pick<SessionUser, 'id' | 'role'>>;

const SESSION_EVENT = 'econagents:session';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export function getAuth(): Tokens | undefined {
  const s = storage();
  const accessToken = s?.getItem('accessToken');
  const refreshToken = s?.getItem('refreshToken');
  return accessToken && refreshToken ? { accessToken, refreshToken } : undefined;
}

export function getUser(): StoredUser | undefined {
  const raw = storage()?.getItem('user');
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as StoredUser;
  } catch {
    return undefined;
  }
}

export function isAuthenticated(): boolean {
  return storage()?.getItem('isAuthenticated') === 'true' && getAuth() !== undefined;
}

/** Stores a fresh token pair (after login or refresh). */
export function setAuth(tokens: Tokens): void {
  const s = storage();
  if (!s) return;
  s.setItem('accessToken', tokens.accessToken);
  s.setItem('refreshToken', tokens.refreshToken);
  s.setItem('isAuthenticated', 'true');
  window.dispatchEvent(new Event(SESSION_EVENT));
}

export function setUser(user: StoredUser): void {
  storage()?.setItem('user', JSON.stringify(user));
  window.dispatchEvent(new Event(SESSION_EVENT));
}

/** Removes all four items (sign-out, or a refresh that failed). */
export function clearSession(): void {
  const s = storage();
  if (!s) return;
  for (const key of SESSION_KEYS) s.removeItem(key);
  window.dispatchEvent(new Event(SESSION_EVENT));
}

/** Calls back whenever this tab or another changes the stored session. Returns the unsubscribe. */
function onSessionChange(callback: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || (SESSION_KEYS as readonly string[]).includes(e.key)) callback();
  };
  window.addEventListener(SESSION_EVENT, callback);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(SESSION_EVENT, callback);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored user, re-read whenever this tab or another changes the session. */
export function useSessionUser(): StoredUser | undefined {
  const raw = useSyncExternalStore(
    onSessionChange,
    () => (getAuth() ? localStorage.getItem('user') : null),
    () => null,
  );
  // Parse only when the stored text changes, so consumers get a stable object.
  return useMemo(() => (raw ? getUser() : undefined), [raw]);
}

/** True while a token pair is stored. */
export function useHasSession(): boolean {
  return useSyncExternalStore(
    onSessionChange,
    () => getAuth() !== undefined,
    () => false,
  );
}
