import { api, newAccount, screenshot, type ServerRef, type Session } from './support';

/**
 * Old names of the app-screen tests' helpers, kept for tests written against them: new tests
 * import from support.ts (api, newAccount, openPage, screenshot, ...).
 */
export {
  choose,
  expectAxeClean,
  openPage,
  openSignedIn,
  pageReady,
  VIEWPORTS,
  type Session,
} from './support';

/** support.ts `api`. */
export function call<T = Record<string, unknown>>(
  server: ServerRef,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  return api<T>(server, method, url, opts);
}

/** support.ts `newAccount`, returning the signed-in session. */
export async function approvedUser(
  server: ServerRef,
  who: { email: string; password: string; displayName: string },
  role: 'researcher' | 'viewer' = 'researcher',
): Promise<Session> {
  return (await newAccount(server, { ...who, role })).session;
}

/** support.ts `screenshot` (the file name gets the viewport width). */
export async function shot(page: Parameters<typeof screenshot>[0], name: string) {
  await screenshot(page, name);
}
