import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  api,
  DESKTOP,
  expectAxeClean,
  newAccount,
  newPage,
  PHONE,
  screenshot,
  SESSION_KEYS,
  settleAnimations,
  signInAsAdmin,
  storedItems,
  storeSession,
  type Session,
} from './support';

/**
 * Accounts in the browser against the real server: registration, the pending message, approval
 * by an admin in /admin, sign-in to /app, the silent token refresh, the user's saved theme, the
 * shell (navigation, search, notifications, account menu) and sign-out; axe-clean shell.
 */

const PENDING =
  'Your account is pending approval by an administrator. You will receive an e-mail when it is approved.';
const REGISTERED =
  'Registration successful. Your account is pending approval by an administrator; you will receive an e-mail when it is approved.';

let server: RunningServer;
let browser: Browser;
let admin: Session;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = await signInAsAdmin(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Signs in through the login form, as a person does. */
async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

describe('accounts in the browser', () => {
  it('register -> pending on login -> admin approves in /admin -> sign in lands on /app', async () => {
    const user = { name: 'Ada Lovelace', email: 'ada@e2e.example', password: 'analytical-engine' };
    const { context, page } = await newPage(browser, PHONE);
    const adminSide = await newPage(browser, DESKTOP);
    try {
      await page.goto(`${server.baseUrl}/register`);
      await page.getByLabel('Display name').fill(user.name);
      await page.getByLabel('Email').fill(user.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
      await page.getByRole('textbox', { name: 'Confirm password' }).fill(user.password);
      await page.getByLabel('Reason').fill('Research on labour markets');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.waitForURL(`${server.baseUrl}/login`);
      await expect(page.getByTestId('login-notice').textContent()).resolves.toBe(REGISTERED);

      // The same e-mail again is refused with the server's message.
      await page.goto(`${server.baseUrl}/register`);
      await page.getByLabel('Display name').fill('Someone');
      await page.getByLabel('Email').fill(user.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
      await page.getByRole('textbox', { name: 'Confirm password' }).fill(user.password);
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await expect(page.getByTestId('register-error').textContent()).resolves.toBe(
        'An account with this email already exists',
      );

      // Pending: the server's message, nothing stored.
      await signInWithForm(page, user.email, user.password);
      await expect(page.getByTestId('login-error').textContent()).resolves.toBe(PENDING);
      expect(Object.values(await storedItems(page)).every((v) => v === null)).toBe(true);

      // The admin approves in /admin.
      await storeSession(adminSide.page, server, admin);
      await adminSide.page.goto(`${server.baseUrl}/admin`);
      const row = adminSide.page.getByTestId(`user-row-${user.email}`);
      await row.getByText('pending').waitFor();
      await row.getByRole('button', { name: `Approve ${user.name}` }).click();
      await expect(adminSide.page.getByTestId('admin-message').textContent()).resolves.toBe(
        'User approved successfully!',
      );
      await row.getByText('approved').waitFor();
      await expect(row.getByRole('button', { name: /^Approve/ }).count()).resolves.toBe(0);

      // Wrong password: the server's message.
      await signInWithForm(page, user.email, 'wrong-password');
      await expect(page.getByTestId('login-error').textContent()).resolves.toBe(
        'Invalid email or password',
      );

      await signInWithForm(page, user.email, user.password);
      await page.waitForURL(`${server.baseUrl}/app`);
      const items = await storedItems(page);
      expect(items.accessToken).toBeTruthy();
      expect(items.refreshToken).toBeTruthy();
      expect(items.isAuthenticated).toBe('true');
      expect(JSON.parse(items.user ?? '{}')).toMatchObject({
        displayName: user.name,
        email: user.email,
        role: 'researcher',
      });
      await expect(page.getByTestId('account-avatar').textContent()).resolves.toBe('AL');

      // The approval left a notification: badge, list, mark read.
      const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
      await bell.click();
      const menu = page.getByRole('menu', { name: 'Notifications' });
      await menu.getByRole('menuitem').first().waitFor();
      await expect(menu.textContent()).resolves.toMatch(/approved/i);
      await menu.getByRole('menuitem').first().click();
      await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
      const unread = await api<{ data: { unreadCount: number } }>(
        server,
        'GET',
        '/api/notifications',
        { token: items.accessToken ?? '' },
      );
      expect(unread.body.data.unreadCount).toBe(0);

      // Sign out: the refresh token is revoked and the four items are gone.
      const refreshToken = items.refreshToken ?? '';
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${server.baseUrl}/login`);
      const after = await storedItems(page);
      for (const key of SESSION_KEYS) expect(after[key]).toBeNull();
      const reuse = await api(server, 'POST', '/api/auth/refresh', { body: { refreshToken } });
      expect(reuse.status).toBe(401);
      // And /app is closed again.
      await page.goto(`${server.baseUrl}/app`);
      await page.waitForURL(`${server.baseUrl}/login`);
    } finally {
      await context.close();
      await adminSide.context.close();
    }
  });

  it('an expired access token is refreshed without the user noticing (one refresh)', async () => {
    const account = {
      email: 'refresh@e2e.example',
      password: 'refresh-password',
      displayName: 'Re Fresh',
    };
    const { session } = await newAccount(server, account);
    const { context, page } = await newPage(browser);
    try {
      await storeSession(page, server, {
        ...session,
        tokens: { ...session.tokens, accessToken: 'garbage.token.value' },
      });
      let refreshes = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/auth/refresh')) refreshes += 1;
      });
      const unauthorised: string[] = [];
      const trace: string[] = [];
      const t0 = Date.now();
      page.on('request', (r) =>
        trace.push(
          `${Date.now() - t0} req ${r.method()} ${r.url()} ${(r.headers().authorization ?? '').slice(-8)}`,
        ),
      );
      page.on('console', (m) => trace.push(`console ${m.type()} ${m.text()}`));
      page.on('framenavigated', (f) => trace.push(`nav ${f.url()}`));
      page.on('response', (r) => {
        trace.push(`${Date.now() - t0} resp ${r.status()} ${r.url()}`);
        if (r.status() === 401) unauthorised.push(r.url());
      });
      const notificationsLoaded = page.waitForResponse(
        (r) => r.url().includes('/api/notifications') && r.status() === 200,
      );
      await page.goto(`${server.baseUrl}/app`);
      // The shell's data loads (the approval notification of this user) and we stay in /app.
      await notificationsLoaded.catch((err: unknown) => {
        // Print what the page did, to tell a slow machine from a lost refresh.
        console.log(`request trace:\n${trace.join('\n')}`);
        throw err;
      });
      await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
      await screenshot(page, 'refreshed');
      expect(page.url()).toBe(`${server.baseUrl}/app`);
      const items = await storedItems(page);
      expect(items.accessToken).not.toBe('garbage.token.value');
      expect(items.refreshToken).not.toBe(session.tokens.refreshToken);
      expect(unauthorised.length).toBeGreaterThan(0);
      expect(refreshes).toBe(1);
      // The new access token works.
      const profile = await api(server, 'GET', '/api/auth/profile', {
        token: items.accessToken ?? '',
      });
      expect(profile.status).toBe(200);
    } finally {
      await context.close();
    }
  });

  it("applies the user's saved theme, and 'system' follows the browser", async () => {
    const account = {
      email: 'dark@e2e.example',
      password: 'dark-password',
      displayName: 'Dee Ark',
    };
    const { session } = await newAccount(server, account);
    const saved = await api(server, 'PUT', '/api/settings', {
      token: session.tokens.accessToken,
      body: { profile: { theme: 'dark' } },
    });
    expect(saved.status).toBe(200);
    const { context, page } = await newPage(browser);
    try {
      await storeSession(page, server, session);
      await page.goto(`${server.baseUrl}/app/settings`);
      await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(14, 20, 33)');
      await screenshot(page, 'shell-dark');

      // 'system' with a light browser is light; with a dark browser, dark.
      await api(server, 'PUT', '/api/settings', {
        token: session.tokens.accessToken,
        body: { profile: { theme: 'system' } },
      });
      const fresh = await newPage(browser);
      try {
        await fresh.page.emulateMedia({ colorScheme: 'light' });
        await storeSession(fresh.page, server, session);
        await fresh.page.goto(`${server.baseUrl}/app`);
        await fresh.page.waitForResponse((r) => r.url().endsWith('/api/settings'));
        await fresh.page.waitForFunction(() =>
          document.documentElement.classList.contains('light'),
        );
        await fresh.page.emulateMedia({ colorScheme: 'dark' });
        await fresh.page.waitForFunction(() => document.documentElement.classList.contains('dark'));
      } finally {
        await fresh.context.close();
      }
    } finally {
      await context.close();
    }
  });

  it('shell: navigation, redirects, search, account menu; axe-clean on a phone and a wide screen', async () => {
    const account = {
      email: 'shell@e2e.example',
      password: 'shell-password',
      displayName: 'Shelly Researcher',
    };
    const { session } = await newAccount(server, account);

    const wide = await newPage(browser, DESKTOP);
    try {
      const { page } = wide;
      await storeSession(page, server, session);
      await page.goto(`${server.baseUrl}/app`);
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      await nav.waitFor();
      await expect(page.getByTestId('version').first().textContent()).resolves.toMatch(
        /^\S.* \d+\.\d+\.\d+/,
      );
      for (const label of [
        'Overview',
        'Project Manager',
        'Ideation',
        'Literature',
        'Data',
        'Model',
        'Code',
      ]) {
        await expect(
          nav.getByRole('link', { name: new RegExp(`^${label}`) }).count(),
        ).resolves.toBe(1);
      }
      // Resources starts collapsed; a researcher sees no Administration link.
      await expect(nav.getByRole('link', { name: 'Settings' }).count()).resolves.toBe(0);
      await nav.getByRole('button', { name: 'Resources' }).click();
      // Click once the section has finished opening, not while its links still move.
      await settleAnimations(page);
      await nav.getByRole('link', { name: 'Settings' }).click();
      await page.waitForURL(`${server.baseUrl}/app/settings`);
      await expect(nav.getByRole('link', { name: 'Administration' }).count()).resolves.toBe(0);
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Settings').waitFor();

      await nav.getByRole('link', { name: /Customized Workflow/ }).click();
      await page.waitForURL(`${server.baseUrl}/app/customized-workflow`);
      await nav.getByRole('link', { name: 'Data New' }).click();
      await page.waitForURL(`${server.baseUrl}/app/data-team`);
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Data Team').waitFor();

      for (const [from, to] of [
        ['/projects', '/app/project-manager'],
        ['/agent-workflow', '/app/agent-workflow'],
      ]) {
        await page.goto(`${server.baseUrl}${from}`);
        await page.waitForURL(`${server.baseUrl}${to}`);
      }

      await page.getByRole('searchbox', { name: 'Search projects' }).fill('labour supply');
      await page.getByRole('searchbox', { name: 'Search projects' }).press('Enter');
      await page.waitForURL(`${server.baseUrl}/app/project-manager?search=labour%20supply`);

      // The shell around a page of its own (the Overview page has its own tests).
      await page.goto(`${server.baseUrl}/app/documentation`);
      await nav.waitFor();
      await page.getByRole('heading', { name: 'Documentation', level: 1 }).waitFor();
      await screenshot(page, 'shell');
      await expectAxeClean(page, '/app shell @1440');

      await page.getByRole('button', { name: 'Account menu' }).click();
      const menu = page.getByRole('menu', { name: 'Account' });
      await menu.waitFor();
      await expect(page.getByTestId('account-name').textContent()).resolves.toBe(
        account.displayName,
      );
      await expect(page.getByTestId('account-email').textContent()).resolves.toBe(account.email);
      await expect(page.getByTestId('account-avatar').textContent()).resolves.toBe('SR');
      await expectAxeClean(page, 'account menu @1440');
      await menu.getByRole('menuitem', { name: 'Help & Support' }).click();
      await page.waitForURL(`${server.baseUrl}/app/documentation`);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await page.waitForURL(`${server.baseUrl}/app/settings`);

      await page
        .locator('header')
        .getByRole('button', { name: /^Notifications/ })
        .click();
      await page.getByRole('menu', { name: 'Notifications' }).waitFor();
      await expectAxeClean(page, 'notifications menu @1440');
    } finally {
      await wide.context.close();
    }

    const phone = await newPage(browser, PHONE);
    try {
      const { page } = phone;
      await storeSession(page, server, session);
      await page.goto(`${server.baseUrl}/app/documentation`);
      // The permanent drawer is hidden; the menu button opens the temporary one.
      await page.getByRole('button', { name: 'Open navigation' }).waitFor();
      await page.getByRole('heading', { name: 'Documentation', level: 1 }).waitFor();
      await expect(page.getByRole('navigation', { name: 'Main navigation' }).count()).resolves.toBe(
        0,
      );
      await screenshot(page, 'shell');
      await expectAxeClean(page, '/app @390');
      await page.getByRole('button', { name: 'Open navigation' }).click();
      const drawer = page.getByRole('navigation', { name: 'Main navigation' });
      await drawer.waitFor();
      await screenshot(page, 'shell-drawer');
      await expectAxeClean(page, 'drawer @390');
      await drawer.getByRole('link', { name: 'Project Manager' }).click();
      await page.waitForURL(`${server.baseUrl}/app/project-manager`);
      await drawer.waitFor({ state: 'hidden' });
      // Sign out is always on screen.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${server.baseUrl}/login`);
      const after = await storedItems(page);
      for (const key of SESSION_KEYS) expect(after[key]).toBeNull();
    } finally {
      await phone.context.close();
    }
  });
});
