import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The one support module of the browser and process tests: calling the API, signing in (through
 * the API and in the browser), making accounts, screenshots, accessibility checks and page
 * readiness. harness.ts starts the server processes and the browser; nothing else is needed.
 *
 * - API: `api(server, method, path, { token, body })` -> `{ status, body }`.
 * - Sign-in: `signIn(server, email, password)` (API) -> `Session`; `signInAsAdmin(server)`;
 *   `storeSession(page, server, session)` puts it into the browser the way the login page does.
 * - Accounts: `newAccount(server, { role, pending, ... })` registers, approves and signs in.
 * - Screenshots: `screenshot(page, name)` writes `e2e/screenshots/<name>-<width>.png`
 *   (git-ignored; E2E_SCREENSHOT_DIR elsewhere, E2E_SCREENSHOTS=off to skip).
 * - Pages: `openPage(browser, server, session, path, size)` a signed-in page once it is ready;
 *   `newPage`, `pageReady`, `choose`, `settleAnimations`, `expectAxeClean`.
 */

/** The administrator every test server is started with (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const E2E_ADMIN = { email: 'admin@e2e.example', password: 'e2e-admin-password' };

/** A running server as the helpers need it (harness.ts's RunningServer, or its URL). */
export type ServerRef = { baseUrl: string } | string;
const baseUrlOf = (server: ServerRef) => (typeof server === 'string' ? server : server.baseUrl);

// ---------------------------------------------------------------------------------------------
// API
// ---------------------------------------------------------------------------------------------

export interface ApiReply<T> {
  status: number;
  /** The parsed JSON reply; `{}` for an empty body. */
  body: T;
}

/** One HTTP call to the server: JSON in and out, the bearer token when given. */
export async function api<T = Record<string, unknown>>(
  server: ServerRef,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<ApiReply<T>> {
  const res = await fetch(`${baseUrlOf(server)}${urlPath}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** `api` for calls that must succeed: throws with the reply when the status is not 2xx. */
export async function apiOk<T = Record<string, unknown>>(
  server: ServerRef,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<T> {
  const reply = await api<T>(server, method, urlPath, options);
  if (reply.status < 200 || reply.status >= 300) {
    throw new Error(`${method} ${urlPath}: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

// ---------------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------------

/** What the login reply carries: the token pair and the user the shell shows. */
export interface Session {
  tokens: { accessToken: string; refreshToken: string };
  user: { id: string; displayName: string; email: string; role: string };
}

/** Signs in through the API (POST /api/auth/login); throws when the server refuses. */
export async function signIn(server: ServerRef, email: string, password: string) {
  const reply = await api<{ data: Session }>(server, 'POST', '/api/auth/login', {
    body: { email, password },
  });
  if (reply.status !== 200) {
    throw new Error(`login failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body.data;
}

export function signInAsAdmin(server: ServerRef): Promise<Session> {
  return signIn(server, E2E_ADMIN.email, E2E_ADMIN.password);
}

/** The four items the web app keeps for a signed-in user. */
export const SESSION_KEYS = ['accessToken', 'refreshToken', 'user', 'isAuthenticated'] as const;

/**
 * Stores a session in the browser the way the login page does, once (not on every navigation).
 * It is written from a same-origin page that runs no app code (/version.json), so no running
 * page reacts to it halfway (a half-done token refresh would leave a rotated token behind).
 */
export async function storeSession(page: Page, server: ServerRef, session: Session) {
  await page.goto(`${baseUrlOf(server)}/version.json`);
  await page.evaluate((s) => {
    localStorage.setItem('accessToken', s.tokens.accessToken);
    localStorage.setItem('refreshToken', s.tokens.refreshToken);
    localStorage.setItem('isAuthenticated', 'true');
    localStorage.setItem('user', JSON.stringify(s.user));
  }, session);
}

/** Stores the session and opens `urlPath` (not waiting for the page; see openPage). */
export async function openSignedIn(
  page: Page,
  server: ServerRef,
  session: Session,
  urlPath: string,
) {
  await storeSession(page, server, session);
  await page.goto(`${baseUrlOf(server)}${urlPath}`);
}

export function storedItems(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)])),
    [...SESSION_KEYS],
  );
}

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

export interface AccountOptions {
  /** Default: a new unique address on e2e.example. */
  email?: string;
  password?: string;
  displayName?: string;
  /** Default researcher; the administrator sets any other role after approving. */
  role?: 'researcher' | 'viewer' | 'admin';
  /** Leave the account waiting for approval (then it cannot sign in: `session` is null). */
  pending?: boolean;
  /** The registration reason. */
  reason?: string;
}

export interface Account {
  id: string;
  email: string;
  password: string;
  displayName: string;
  /** Signed in through the API. */
  session: Session;
}

/** An account left waiting for approval: it cannot sign in yet. */
export type PendingAccount = Omit<Account, 'session'> & { session: null };

let accountCounter = 0;

/**
 * The account factory: registers through the API, has the administrator approve it (unless
 * `pending`) and set its role, and signs it in.
 */
export function newAccount(
  server: ServerRef,
  options: AccountOptions & { pending: true },
): Promise<PendingAccount>;
export function newAccount(
  server: ServerRef,
  options?: AccountOptions & { pending?: false },
): Promise<Account>;
export async function newAccount(
  server: ServerRef,
  options: AccountOptions = {},
): Promise<Account | PendingAccount> {
  accountCounter += 1;
  const unique = `${process.pid}-${Date.now().toString(36)}-${accountCounter}`;
  const email = options.email ?? `user-${unique}@e2e.example`;
  const password = options.password ?? `e2e-password-${unique}`;
  const displayName = options.displayName ?? `E2E User ${accountCounter}`;
  await apiOk(server, 'POST', '/api/auth/register', {
    body: { email, password, displayName, reason: options.reason ?? 'e2e test account' },
  });
  const admin = await signInAsAdmin(server);
  const token = admin.tokens.accessToken;
  const users = await apiOk<{ data: { users: Array<{ id: string; email: string }> } }>(
    server,
    'GET',
    '/api/auth/users?limit=500',
    { token },
  );
  const id = users.data.users.find((u) => u.email === email.toLowerCase())?.id;
  if (!id) throw new Error(`registered user ${email} not listed`);
  if (options.pending) return { id, email, password, displayName, session: null };
  await apiOk(server, 'PUT', `/api/auth/users/${id}/status`, {
    token,
    body: { status: 'approved' },
  });
  if (options.role && options.role !== 'researcher') {
    await apiOk(server, 'PUT', `/api/auth/users/${id}`, { token, body: { role: options.role } });
  }
  return { id, email, password, displayName, session: await signIn(server, email, password) };
}

// ---------------------------------------------------------------------------------------------
// Screenshots
// ---------------------------------------------------------------------------------------------

export const SCREENSHOT_DIR = path.resolve(
  process.env.E2E_SCREENSHOT_DIR ??
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots'),
);

/**
 * A screenshot for a person to look at (never compared automatically), written once the page's
 * animations have settled to `<SCREENSHOT_DIR>/<name>-<viewport width>.png`. `name` says the
 * test and the state, e.g. 'settings-model-status'.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string | undefined> {
  if (process.env.E2E_SCREENSHOTS === 'off') return undefined;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await settleAnimations(page);
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '_')}-${width}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  return file;
}

// ---------------------------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------------------------

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };
export const VIEWPORTS = [
  { name: 'phone', ...PHONE },
  { name: 'wide', ...DESKTOP },
] as const;

/** A fresh browser context and page; it runs under the server's real Content-Security-Policy. */
export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

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
  server: ServerRef,
  session: Session,
  urlPath: string,
  size: { width: number; height: number } = DESKTOP,
): Promise<Page> {
  const { page } = await newPage(browser, size);
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await openSignedIn(page, server, session, urlPath);
  await pageReady(page);
  return page;
}

/** Picks `option` in the select labelled `label` and waits until its list has closed. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
}

/**
 * Waits until the page's finite CSS transitions and animations have ended (at most 2 s):
 * colours read mid-transition (a button just enabled, a dialog fading in) and clicks on a list
 * that is still expanding give results that are neither the old state nor the new one. Endless
 * animations (spinners) are not waited for.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Accessibility
// ---------------------------------------------------------------------------------------------

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * Runs axe-core in the page; returns the serious and critical violations. axe is evaluated
 * through the DevTools protocol rather than added as a <script>: the app's Content-Security-Policy
 * (script-src 'self') rightly refuses inline scripts, and the page is tested under that policy.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Once per document: evaluating axe's 550 KB again costs the renderer about as much CPU as a
  // run (docs/performance.md, CI, sixth pass). A navigation gives a new window without it.
  const present = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!present) {
    const loaded = await page.evaluate(`${AXE_SOURCE}\n;typeof window.axe === 'object'`);
    if (loaded !== true) throw new Error('axe-core did not load in the page');
  }
  await settleAnimations(page);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            options: { resultTypes: string[] },
          ) => Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    // Every rule runs and every violating node is reported as before; resultTypes only spares
    // axe building selectors and HTML for each node that passed (or was incomplete), which
    // nothing here reads: half of a run's CPU on the app's larger pages.
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Fails with the list of serious and critical axe-core findings, if any. With `scope: 'main'`
 * only findings inside <main> or a dialog count (a page's own content; the shell around it has
 * its own tests).
 */
export async function expectAxeClean(
  page: Page,
  where: string,
  options: { scope?: 'page' | 'main' } = {},
) {
  let violations = await seriousA11yViolations(page);
  if (options.scope === 'main') {
    const inside: AxeViolation[] = [];
    for (const v of violations) {
      const nodes = await page.evaluate(
        (targets) =>
          targets.filter((t) =>
            document.querySelector(t)?.closest('main, [role="dialog"], [role="presentation"]'),
          ),
        v.nodes.map((node) => node.target.join(' ')),
      );
      if (nodes.length > 0) inside.push({ ...v, nodes: nodes.map((t) => ({ target: [t] })) });
    }
    violations = inside;
  }
  expect(
    violations.map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help} @ ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}
