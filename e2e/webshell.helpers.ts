import { expect } from 'vitest';
import { api, newAccount, settleAnimations, type ServerRef } from './support';

/**
 * Old names of the web-shell tests' helpers, kept for tests written against them: new tests
 * import from support.ts (api, newAccount, screenshot, ...).
 */
export {
  DESKTOP,
  expectAxeClean,
  newPage,
  PHONE,
  screenshot,
  SESSION_KEYS,
  storedItems,
  storeSession,
  type Session,
} from './support';

/** Waits until a popover, menu, dialog or collapsing list has finished its transition. */
export const settled = settleAnimations;

/** support.ts `api`, with the reply under `json`. */
export async function apiCall<T>(
  server: ServerRef,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; json: T }> {
  const reply = await api<T>(server, method, urlPath, options);
  return { status: reply.status, json: reply.body };
}

/** support.ts `newAccount` returning the id; the admin token is no longer needed. */
export async function createAccount(
  server: ServerRef,
  _adminToken: string,
  account: { email: string; password: string; displayName: string },
  options: { pending?: boolean; role?: 'researcher' | 'viewer' | 'admin' } = {},
): Promise<string> {
  const created = options.pending
    ? await newAccount(server, { ...account, role: options.role, pending: true })
    : await newAccount(server, { ...account, role: options.role });
  expect(created.id).toBeTruthy();
  return created.id;
}
