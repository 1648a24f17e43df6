import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  SERVE_WITH_TEST_TEAM_COMMAND,
  startServer,
  type RunningServer,
} from './harness';
import { apiOk, newAccount, openPage, screenshot, type Session } from './support';

/**
 * Quieter notifications in Chromium at 390 and 1440 px: the bell's menu holds one entry per
 * session with its count (a session's checkpoints together), and opening it marks the session
 * read. On a phone the team screens' fun-facts bar takes one line and can be hidden for good.
 */

let server: RunningServer;
let browser: Browser;
let nora: Session;

interface SessionReply {
  sessionId: string;
}
interface SessionState {
  session: { status: string; checkpoint: number | null };
}

function asNora<T>(method: string, path: string, body?: unknown): Promise<T> {
  return apiOk<T>(server, method, path, { token: nora.tokens.accessToken, body });
}

async function waitingAt(id: string, checkpoint: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { session } = await asNora<SessionState>('GET', `/api/agents/sessions/${id}`);
    if (session.status === 'waiting_for_input' && session.checkpoint === checkpoint) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`session ${id} never waited at checkpoint ${checkpoint}`);
}

async function unreadCount(): Promise<number> {
  const r = await asNora<{ data: { unreadCount: number } }>('GET', '/api/notifications');
  return r.data.unreadCount;
}

beforeAll(async () => {
  server = await startServer({ command: SERVE_WITH_TEST_TEAM_COMMAND });
  browser = await launchBrowser();
  ({ session: nora } = await newAccount(server, {
    email: 'nora.notifications@e2e.example',
    password: 'nora-password-1',
    displayName: 'Nora Notifications',
  }));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openBell(page: Page) {
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  await menu.getByRole('menuitem').first().waitFor();
  return menu;
}

describe('Notifications menu', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    await asNora('POST', '/api/notifications/read-all');
    // Session one: two checkpoints (approved at the first); session two: one.
    first = (
      await asNora<SessionReply>('POST', '/api/agents/sessions', {
        teamId: 'runtime-test',
        input: { topic: 'inflation expectations' },
      })
    ).sessionId;
    await waitingAt(first, 1);
    // Revision feedback brings checkpoint 1 back: still one notification for it.
    await asNora('POST', `/api/agents/sessions/${first}/feedback`, { feedback: 'Add wages' });
    await new Promise((r) => setTimeout(r, 500));
    await waitingAt(first, 1);
    await asNora('POST', `/api/agents/sessions/${first}/feedback`, { feedback: 'Approved' });
    await waitingAt(first, 2);
    second = (
      await asNora<SessionReply>('POST', '/api/agents/sessions', {
        teamId: 'runtime-test',
        input: { topic: 'labour supply' },
      })
    ).sessionId;
    await waitingAt(second, 1);
    const deadline = Date.now() + 10_000;
    while ((await unreadCount()) < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await unreadCount()).toBe(3);
  });

  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    it(`groups a session's checkpoints in one entry with its count at ${width} px`, async () => {
      const page = await openPage(browser, server, nora, '/app', { width, height });
      await page.getByRole('button', { name: 'Notifications, 3 unread' }).waitFor();
      const menu = await openBell(page);
      const entries = menu.getByRole('menuitem');
      // Two sessions and the 'account approved' notice: three entries for four notifications.
      expect(await entries.count()).toBe(3);
      const firstEntry = entries.filter({ hasText: 'Checkpoint 2' });
      expect(await firstEntry.count()).toBe(1);
      expect(await firstEntry.textContent()).toContain('2 notifications, 2 unread');
      const secondEntry = entries.filter({ hasText: 'Checkpoint 1' });
      expect(await secondEntry.count()).toBe(1);
      expect(await secondEntry.textContent()).not.toContain('notifications');
      // The menu fits the screen.
      const box = await page.locator('.MuiPopover-paper').boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await screenshot(page, 'notifications-grouped-menu', { fullPage: false });
      await page.context().close();
    });
  }

  it('opening a session’s entry marks all its notifications read', async () => {
    const page = await openPage(browser, server, nora, '/app', { width: 1440, height: 900 });
    const menu = await openBell(page);
    await menu.getByRole('menuitem').filter({ hasText: 'Checkpoint 2' }).click();
    // (The test team has no screen of its own: its link leads out of the app shell.)
    const deadline = Date.now() + 10_000;
    while ((await unreadCount()) !== 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await unreadCount()).toBe(1);
    await page.context().close();
  });
});

describe('Fun facts footer', () => {
  it('takes one line on a phone and stays hidden once dismissed', async () => {
    const page = await openPage(browser, server, nora, '/app/literature-team', {
      width: 390,
      height: 844,
    });
    const bar = page.getByRole('complementary', { name: 'Fun fact' });
    await bar.waitFor();
    const box = await bar.boundingBox();
    const fact = page.getByTestId('fun-fact');
    const lineHeight = await fact.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    const factHeight = (await fact.boundingBox())!.height;
    console.info(`fun-facts bar at 390x844: ${box!.height.toFixed(1)} px high`);
    expect(box!.height).toBeLessThanOrEqual(48);
    expect(factHeight).toBeLessThanOrEqual(lineHeight + 1);
    // It covers nothing: the page keeps room for it at the bottom.
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    await screenshot(page, 'fun-facts-phone', { fullPage: false });

    await page.getByRole('button', { name: 'Hide fun facts' }).click();
    expect(await bar.count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByRole('complementary', { name: 'Fun fact' }).count()).toBe(0);
    await page.context().close();
  });

  it('keeps the whole fact on a wide screen', async () => {
    const page = await openPage(browser, server, nora, '/app/literature-team', {
      width: 1440,
      height: 900,
    });
    const bar = page.getByRole('complementary', { name: 'Fun fact' });
    await bar.waitFor();
    const box = await bar.boundingBox();
    console.info(`fun-facts bar at 1440x900: ${box!.height.toFixed(1)} px high`);
    const fact = page.getByTestId('fun-fact');
    expect(await fact.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'fun-facts-wide', { fullPage: false });
    await page.context().close();
  });
});
