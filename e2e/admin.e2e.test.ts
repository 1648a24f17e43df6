import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  api,
  DESKTOP,
  E2E_ADMIN,
  expectAxeClean,
  newAccount,
  newPage,
  PHONE,
  screenshot,
  signIn,
  signInAsAdmin,
  storeSession,
  type Session,
} from './support';

/**
 * /admin against the real server: the guard's three messages and its redirect, the stat cards,
 * approve/reject with the spec's messages (also failures), the edit dialog that really saves,
 * and the waiting list with its CSV export; axe-clean on a phone and a wide screen.
 */

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

describe('admin guard', () => {
  it('redirects to /login without stored auth', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.baseUrl}/admin`);
      await page.waitForURL(`${server.baseUrl}/login`);
    } finally {
      await context.close();
    }
  });

  it('refuses a researcher', async () => {
    const account = {
      email: 'res@e2e.example',
      password: 'researcher-pass',
      displayName: 'Res Earcher',
    };
    const { session } = await newAccount(server, account);
    const { context, page } = await newPage(browser);
    try {
      await storeSession(page, server, session);
      await page.goto(`${server.baseUrl}/admin`);
      await page.getByText('Access denied. Admin privileges required.').waitFor();
      await expect(
        page.getByRole('heading', { name: 'Administration', level: 1 }).count(),
      ).resolves.toBe(1);
      await expect(page.getByText('Total Users').count()).resolves.toBe(0);
      await expectAxeClean(page, 'access denied');
    } finally {
      await context.close();
    }
  });

  it('asks to log in when the stored tokens are garbage', async () => {
    const { context, page } = await newPage(browser);
    try {
      await storeSession(page, server, {
        ...admin,
        tokens: { accessToken: 'garbage', refreshToken: 'garbage' },
      });
      await page.goto(`${server.baseUrl}/admin`);
      await page.getByText('Please log in to access admin features.').waitFor();
      // The failed refresh removed the stored session.
      await expect(page.evaluate(() => localStorage.getItem('accessToken'))).resolves.toBeNull();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(`${server.baseUrl}/login`);
    } finally {
      await context.close();
    }
  });

  it('says verification failed when the profile call breaks', async () => {
    const { context, page } = await newPage(browser);
    try {
      await storeSession(page, server, admin);
      await page.route('**/api/auth/profile', (route) => route.abort('connectionrefused'));
      await page.goto(`${server.baseUrl}/admin`);
      await page.getByText('Failed to verify admin status. Please log in.').waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('admin page', () => {
  it('approves, rejects and edits users with the spec messages; edits are saved', async () => {
    const ids: Record<string, string> = {};
    for (const [key, displayName] of [
      ['p1', 'Pending One'],
      ['p2', 'Pending Two'],
      ['p3', 'Pending Three'],
    ] as const) {
      ids[key] = (
        await newAccount(server, {
          email: `${key}@e2e.example`,
          password: 'pending-password',
          displayName,
          pending: true,
        })
      ).id;
    }
    const { context, page } = await newPage(browser);
    try {
      await storeSession(page, server, admin);
      await page.goto(`${server.baseUrl}/admin`);
      const message = page.getByTestId('admin-message');
      const row = (key: string) => page.getByTestId(`user-row-${key}@e2e.example`);
      await row('p1').waitFor();

      // Stat cards count by role; three pending researchers plus earlier accounts.
      const users = await api<{ data: { users: Array<{ role: string }> } }>(
        server,
        'GET',
        '/api/auth/users',
        {
          token: admin.tokens.accessToken,
        },
      );
      const all = users.body.data.users;
      await expect(page.getByTestId('stat-total-users').textContent()).resolves.toBe(
        String(all.length),
      );
      await expect(page.getByTestId('stat-admin-users').textContent()).resolves.toBe(
        String(all.filter((u) => u.role === 'admin').length),
      );
      await expect(page.getByTestId('stat-researchers').textContent()).resolves.toBe(
        String(all.filter((u) => u.role === 'researcher').length),
      );
      // Approve and reject appear only for pending users.
      await expect(
        page
          .getByTestId(`user-row-${E2E_ADMIN.email}`)
          .getByRole('button', { name: /^Approve/ })
          .count(),
      ).resolves.toBe(0);

      await row('p1').getByRole('button', { name: 'Approve Pending One' }).click();
      await expect(message.textContent()).resolves.toBe('User approved successfully!');
      await row('p1').getByText('approved', { exact: true }).waitFor();

      await row('p2').getByRole('button', { name: 'Reject Pending Two' }).click();
      await message.getByText('User rejected successfully!').waitFor();
      await row('p2').getByText('rejected', { exact: true }).waitFor();
      await expect(
        row('p2')
          .getByRole('button', { name: /^Reject/ })
          .count(),
      ).resolves.toBe(0);

      // Failure with a server message shows it; without one, the fallback text.
      await page.route('**/api/auth/users/*/status', (route) =>
        route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({
            success: false,
            error: 'Conflict',
            message: 'User was already decided',
          }),
        }),
      );
      await row('p3').getByRole('button', { name: 'Approve Pending Three' }).click();
      await message.getByText('User was already decided').waitFor();
      await page.unroute('**/api/auth/users/*/status');
      await page.route('**/api/auth/users/*/status', (route) =>
        route.fulfill({ status: 500, body: 'oops' }),
      );
      await row('p3').getByRole('button', { name: 'Reject Pending Three' }).click();
      await message.getByText('Failed to reject user').waitFor();
      await page.unroute('**/api/auth/users/*/status');
      await row('p3').getByText('pending', { exact: true }).waitFor();

      // Edit: name and role change, the email cannot.
      await row('p1').getByRole('button', { name: 'Edit Pending One' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit user' });
      const email = dialog.getByLabel('Email');
      await expect(email.inputValue()).resolves.toBe('p1@e2e.example');
      await expect(email.getAttribute('readonly')).resolves.not.toBeNull();
      await dialog.getByText('The email address cannot be changed.').waitFor();
      await dialog.getByLabel('Name').fill('Approved Viewer');
      await dialog.getByLabel('Role').click();
      await page.getByRole('option', { name: 'Viewer' }).click();
      await expectAxeClean(page, 'edit dialog');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await message.getByText('User updated successfully').waitFor();
      await row('p1').getByText('Approved Viewer').waitFor();
      const saved = await api<{
        data: { users: Array<{ id: string; displayName: string; role: string }> };
      }>(server, 'GET', '/api/auth/users', { token: admin.tokens.accessToken });
      expect(saved.body.data.users.find((u) => u.id === ids.p1)).toMatchObject({
        displayName: 'Approved Viewer',
        role: 'viewer',
      });
      // Cancel changes nothing.
      await row('p1').getByRole('button', { name: 'Edit Approved Viewer' }).click();
      await dialog.getByLabel('Name').fill('Not Saved');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.reload();
      await row('p1').getByText('Approved Viewer').waitFor();
    } finally {
      await context.close();
    }
  });

  it('sets a new password for a user who lost theirs; their old sessions end', async () => {
    await newAccount(server, {
      email: 'forgetful@e2e.example',
      password: 'the-old-password',
      displayName: 'Forgetful Researcher',
    });
    const old = await signIn(server, 'forgetful@e2e.example', 'the-old-password');
    const { context, page } = await newPage(browser);
    try {
      await storeSession(page, server, admin);
      await page.goto(`${server.baseUrl}/admin`);
      const row = page.getByTestId('user-row-forgetful@e2e.example');
      await row.getByRole('button', { name: 'Edit Forgetful Researcher' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit user' });
      const password = dialog.getByLabel('New password', { exact: true });
      await password.fill('short');
      await dialog.getByRole('button', { name: 'Set password' }).click();
      await dialog.getByText('The password must be at least 8 characters').waitFor();
      await password.fill('handed-over-in-person');
      await expectAxeClean(page, 'edit dialog with a new password');
      await screenshot(page, 'admin-set-password');
      await dialog.getByRole('button', { name: 'Set password' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page
        .getByTestId('admin-message')
        .getByText(/^New password set\. \d+ of their sessions? (was|were) signed out\./)
        .waitFor();

      // The administrator's own row offers no password field (Settings > Security does that).
      await page
        .getByTestId(`user-row-${E2E_ADMIN.email}`)
        .getByRole('button', { name: /^Edit/ })
        .click();
      await dialog.waitFor();
      await expect(dialog.getByLabel('New password', { exact: true }).count()).resolves.toBe(0);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await context.close();
    }
    const refresh = await api(server, 'POST', '/api/auth/refresh', {
      body: { refreshToken: old.tokens.refreshToken },
    });
    expect(refresh.status).toBe(401);
    await signIn(server, 'forgetful@e2e.example', 'handed-over-in-person');
  });

  it('lists the waiting list and downloads it as CSV without opening a tab', async () => {
    const joined = await api(server, 'POST', '/api/waiting-list', {
      body: {
        name: 'Export Person',
        email: 'export@e2e.example',
        affiliation: 'Uni',
        interestArea: 'Other',
      },
    });
    expect(joined.status).toBe(201);
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await newPage(browser, viewport);
      try {
        await storeSession(page, server, admin);
        await page.goto(`${server.baseUrl}/admin`);
        await page.getByRole('tab', { name: 'Waiting List' }).click();
        const table = page.getByRole('table', { name: 'Waiting list' });
        await table.getByText('export@e2e.example').waitFor();
        await expect(page.getByTestId('stat-waiting-list').textContent()).resolves.toBe('1');
        const adminUrl = page.url();
        const opened: string[] = [];
        context.on('page', (p) => opened.push(p.url()));

        const tokenReply = page.waitForResponse((r) =>
          r.url().endsWith('/api/waiting-list/export-token'),
        );
        const downloaded = page.waitForEvent('download', { timeout: 30_000 });
        await page.getByRole('tabpanel').getByRole('button', { name: 'Export CSV' }).click();
        expect((await tokenReply).status()).toBe(200);
        const download = await downloaded;
        expect(download.url()).toContain('/api/waiting-list/export.csv?token=');
        expect(download.suggestedFilename()).toMatch(/^waiting-list-\d{4}-\d{2}-\d{2}\.csv$/);
        const csv = fs.readFileSync(await download.path(), 'utf8');
        expect(csv).toContain('export@e2e.example');
        expect(csv).toContain('Export Person');
        // No tab was opened, and the admin page is still there, working.
        expect(opened).toEqual([]);
        expect(context.pages()).toHaveLength(1);
        expect(page.url()).toBe(adminUrl);
        await table.getByText('export@e2e.example').waitFor();
        await page.getByRole('tabpanel').getByRole('button', { name: 'Export CSV' }).waitFor();
        await expect(
          page.getByRole('tabpanel').getByRole('button', { name: 'Export CSV' }).isEnabled(),
        ).resolves.toBe(true);
        await expectAxeClean(page, `/admin after the CSV export @${viewport.width}`);
      } finally {
        await context.close();
      }
    }
    // The token is bound to the export; without it the file is refused.
    const bare = await api(server, 'GET', '/api/waiting-list/export.csv');
    expect(bare.status).toBe(401);
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`is axe-clean at ${viewport.width}px`, async () => {
      const { context, page } = await newPage(browser, viewport);
      try {
        await storeSession(page, server, admin);
        await page.goto(`${server.baseUrl}/admin`);
        await page.getByRole('table', { name: 'Users' }).waitFor();
        await screenshot(page, 'admin');
        await expectAxeClean(page, `/admin @${viewport.width}`);
        await page.getByRole('tab', { name: 'Waiting List' }).click();
        await page.getByRole('tabpanel').getByRole('button', { name: 'Export CSV' }).waitFor();
        await screenshot(page, 'admin-waiting');
        await expectAxeClean(page, `/admin waiting list @${viewport.width}`);
      } finally {
        await context.close();
      }
    });
  }
});
