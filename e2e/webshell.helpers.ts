import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { apiLogin, seriousA11yViolations, settleAnimations, type RunningServer } from './harness';

/** Shared steps of the public, auth and admin browser tests (web-shell). */

export const SESSION_KEYS = ['accessToken', 'refreshToken', 'user', 'isAuthenticated'] as const;
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };

export type Session = Awaited<ReturnType<typeof apiLogin>>;

/** A fresh browser context and page; it runs under the server's real Content-Security-Policy. */
export async function newPage(
  browser: Browser,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

/**
 * Stores a session the way the login page does, once (not on every navigation). It is written
 * from a same-origin page that runs no app code (/version.json), so no running page reacts to
 * it halfway (a half-done token refresh would leave a rotated refresh token behind).
 */
export async function storeSession(page: Page, server: RunningServer, session: Session) {
  await page.goto(`${server.baseUrl}/version.json`);
  await page.evaluate((s) => {
    localStorage.setItem('accessToken', s.tokens.accessToken);
    localStorage.setItem('refreshToken', s.tokens.refreshToken);
    localStorage.setItem('isAuthenticated', 'true');
    localStorage.setItem('user', JSON.stringify(s.user));
  }, session);
}

export function storedItems(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)])),
    [...SESSION_KEYS],
  );
}

export async function apiCall<T>(
  server: RunningServer,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${server.baseUrl}${urlPath}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
}

/** Registers an account through the API and, unless `pending`, approves it as the admin. */
export async function createAccount(
  server: RunningServer,
  adminToken: string,
  account: { email: string; password: string; displayName: string },
  options: { pending?: boolean; role?: 'researcher' | 'viewer' | 'admin' } = {},
): Promise<string> {
  const reg = await apiCall(server, 'POST', '/api/auth/register', { body: account });
  expect(reg.status).toBe(201);
  const users = await apiCall<{ data: { users: Array<{ id: string; email: string }> } }>(
    server,
    'GET',
    '/api/auth/users',
    { token: adminToken },
  );
  const id = users.json.data.users.find((u) => u.email === account.email)?.id;
  if (!id) throw new Error(`registered user ${account.email} not listed`);
  if (!options.pending) {
    const ok = await apiCall(server, 'PUT', `/api/auth/users/${id}/status`, {
      token: adminToken,
      body: { status: 'approved' },
    });
    expect(ok.status).toBe(200);
  }
  if (options.role && options.role !== 'researcher') {
    const ok = await apiCall(server, 'PUT', `/api/auth/users/${id}`, {
      token: adminToken,
      body: { role: options.role },
    });
    expect(ok.status).toBe(200);
  }
  return id;
}

/** Waits until a popover, menu, dialog or collapsing list has finished its transition. */
export const settled = settleAnimations;

/** Fails with the list of serious and critical axe-core findings, if any. */
export async function expectAxeClean(page: Page, where: string) {
  await settled(page);
  const violations = await seriousA11yViolations(page);
  expect(
    violations.map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help} @ ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}

/** Saves a screenshot when E2E_SCREENSHOT_DIR is set (for looking at the screens by hand). */
export async function screenshot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}
