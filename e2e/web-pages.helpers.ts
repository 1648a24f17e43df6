import type { Browser, Page } from 'playwright-core';
import { E2E_ADMIN, apiLogin, type RunningServer } from './harness';

import type { Session } from './webshell.helpers';

export { expectAxeClean, type Session } from './webshell.helpers';

/**
 * Helpers shared by the app-screen browser tests (projects, dashboard, settings, documents,
 * data explorer): approved accounts made through the real API, a signed-in page, API calls.
 */

export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** Registers an account, has the admin approve it, and signs it in. */
export async function approvedUser(
  server: RunningServer,
  who: { email: string; password: string; displayName: string },
  role: 'researcher' | 'viewer' = 'researcher',
): Promise<Session> {
  const reg = await call(server.baseUrl, 'POST', '/api/auth/register', {
    body: { ...who, reason: 'e2e test account' },
  });
  if (reg.status >= 300)
    throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const admin = await apiLogin(server.baseUrl, E2E_ADMIN.email, E2E_ADMIN.password);
  const users = await call<{ data: { users: Array<{ id: string; email: string }> } }>(
    server.baseUrl,
    'GET',
    '/api/auth/users',
    { token: admin.tokens.accessToken },
  );
  const user = users.body.data.users.find((u) => u.email === who.email.toLowerCase());
  if (!user) throw new Error(`registered user ${who.email} not listed`);
  const approve = await call(server.baseUrl, 'PUT', `/api/auth/users/${user.id}/status`, {
    token: admin.tokens.accessToken,
    body: { status: 'approved' },
  });
  if (approve.status >= 300) throw new Error(`approve failed: ${approve.status}`);
  if (role !== 'researcher') {
    const edit = await call(server.baseUrl, 'PUT', `/api/auth/users/${user.id}`, {
      token: admin.tokens.accessToken,
      body: { role },
    });
    if (edit.status >= 300)
      throw new Error(`role change failed: ${edit.status} ${JSON.stringify(edit.body)}`);
  }
  return apiLogin(server.baseUrl, who.email, who.password);
}

/** Stores the session the way the web app does (the four items) and opens `path`. */
export async function openSignedIn(page: Page, baseUrl: string, session: Session, path: string) {
  await page.goto(`${baseUrl}/version.json`);
  await page.evaluate((s) => {
    localStorage.setItem('accessToken', s.tokens.accessToken);
    localStorage.setItem('refreshToken', s.tokens.refreshToken);
    localStorage.setItem('isAuthenticated', 'true');
    localStorage.setItem('user', JSON.stringify(s.user));
  }, session);
  await page.goto(`${baseUrl}${path}`);
}

/** A full-page screenshot for a person to look at (not compared automatically). */
export async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR ?? '/tmp/webpages-shots';
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'wide', width: 1440, height: 900 },
] as const;

/** Waits until the page's heading is there and no skeleton or spinner says it is busy. */
export async function pageReady(page: Page) {
  await page.waitForFunction(
    () => document.querySelector('main h1') && !document.querySelector('[aria-busy="true"]'),
    null,
    { timeout: 20_000 },
  );
}

/** A new browser context of this size, signed in as `session`, showing `path` once it is ready. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  session: Session,
  path: string,
  size: { width: number; height: number } = { width: 1440, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await openSignedIn(page, baseUrl, session, path);
  await pageReady(page);
  return page;
}

/** Picks `option` in the select labelled `label` and waits until its list has closed. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
}
