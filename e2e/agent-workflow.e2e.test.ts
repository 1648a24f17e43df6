import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  launchBrowser,
  SERVE_WITH_TEST_TEAM_COMMAND,
  startServer,
  type RunningServer,
} from './harness';
import {
  apiOk,
  expectAxeClean,
  newPage,
  screenshot,
  signInAsAdmin,
  storeSession,
  type Session,
} from './support';

/**
 * The Agent Workflow page (/app/agent-workflow) against the real server with the runtime's test
 * team: a session started through the API shows up live, its log follows, Pause / Start /
 * Reset drive it, the research stages follow the project; axe-clean at phone and desktop width.
 */

let server: RunningServer;
let browser: Browser;
let auth: Session;

/** A call as the administrator that must succeed. */
function asAdmin<T>(method: string, path: string, body?: unknown): Promise<T> {
  return apiOk<T>(server, method, path, { token: auth.tokens.accessToken, body });
}

interface SessionReply {
  session: { sessionId: string; status: string; paused: boolean; phase: number };
}

async function signedInPage(viewport: { width: number; height: number }): Promise<{
  context: BrowserContext;
  page: Page;
}> {
  const opened = await newPage(browser, viewport);
  await storeSession(opened.page, server, auth);
  return opened;
}

/** The live status chip of the selected session. */
const selectedStatus = (page: Page) =>
  page.getByRole('region', { name: 'Selected session' }).getByRole('status');

beforeAll(async () => {
  server = await startServer({ command: SERVE_WITH_TEST_TEAM_COMMAND });
  browser = await launchBrowser();
  auth = await signInAsAdmin(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Agent Workflow page', () => {
  it('follows a real session live and drives it with Start/Pause and Reset', async () => {
    const { context, page } = await signedInPage({ width: 1366, height: 900 });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    // No sessions yet: an empty state that points at the team screens, no sample data.
    await page.goto(`${server.baseUrl}/app/agent-workflow`);
    await page.getByRole('heading', { name: 'Agent Workflow', level: 1 }).waitFor();
    await page.getByText('No agent sessions yet').waitFor();
    await page.getByRole('navigation', { name: 'Agent team screens' }).waitFor();
    expect(await page.getByRole('link', { name: 'Literature Review' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Start', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('complementary', { name: 'Fun fact' }).waitFor();
    await expectAxeClean(page, 'empty overview', { scope: 'main' });
    await screenshot(page, 'workflow-empty');

    // A session started elsewhere (through the API) appears without a reload.
    const { data } = await asAdmin<{ data: { project: { id: string } } }>('POST', '/api/projects', {
      title: 'Monetary policy rules in small open economies',
      researchArea: 'Macroeconomics',
      workflowStage: 'literature',
    });
    const projectId = data.project.id;
    const started = await asAdmin<SessionReply>('POST', '/api/agents/sessions', {
      teamId: 'runtime-test',
      input: { topic: 'Taylor rule estimation' },
      configuration: { delayMs: 2500 },
      projectId,
    });
    const sessionId = started.session.sessionId;
    const row = page.locator(`tr[data-session-id="${sessionId}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('Runtime Test Team');
    // The project was created after the page read its project list: the page reads it again.
    await expect
      .poll(() => row.textContent(), { timeout: 10_000 })
      .toContain('Monetary policy rules');

    // The selected session: its status, and elapsed seconds ticking while it runs.
    const card = page.getByRole('region', { name: 'Selected session' });
    await card.waitFor();
    const elapsed = page.getByTestId('selected-elapsed');
    const first = await elapsed.textContent();
    await page.waitForTimeout(2200);
    expect(await elapsed.textContent()).not.toBe(first);

    // Phase 1 ends at checkpoint 1: the chip follows.
    await selectedStatus(page)
      .filter({ hasText: 'Waiting for Input' })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'workflow-overview');
    await expectAxeClean(page, 'overview with a session', { scope: 'main' });

    // The log: the runtime's own lines, and new ones as they are written.
    await page.getByRole('tab', { name: 'Log' }).click();
    const log = page.getByRole('log', { name: 'Log of the Runtime Test Team session' });
    await log.getByText('Started Runtime Test Team session: 4 phases, 2 checkpoints').waitFor();
    await log.getByText('Collected 3 items from the topic').waitFor();
    // The real-time channel is connected (with the access token in its address).
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 10_000 });
    await asAdmin('POST', `/api/agents/sessions/${sessionId}/feedback`, { feedback: 'Approved' });
    await log.getByText('Checkpoint 1 approved').waitFor({ timeout: 10_000 });
    await selectedStatus(page).filter({ hasText: 'Processing' }).waitFor({ timeout: 10_000 });
    await expectAxeClean(page, 'log tab', { scope: 'main' });

    // Pause while phase 2 runs, then Start resumes it.
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await selectedStatus(page).filter({ hasText: 'Paused' }).waitFor({ timeout: 10_000 });
    await log.getByText('Paused by the user during phase 2').waitFor({ timeout: 10_000 });
    let session = await asAdmin<SessionReply>('GET', `/api/agents/sessions/${sessionId}`);
    expect(session.session).toMatchObject({ status: 'idle', paused: true, phase: 2 });
    const pausedAt = await elapsed.textContent();
    await page.waitForTimeout(1500);
    expect(await elapsed.textContent()).toBe(pausedAt);

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await selectedStatus(page).filter({ hasText: 'Processing' }).waitFor({ timeout: 10_000 });
    await log.getByText('Resumed at phase 2').waitFor({ timeout: 10_000 });

    // Reset asks first, then returns the session to idle.
    await page.getByRole('button', { name: 'Reset' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset this session?' });
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await selectedStatus(page).filter({ hasText: 'Idle' }).waitFor({ timeout: 10_000 });
    await log.getByText(/Session reset \(it was/).waitFor({ timeout: 10_000 });
    session = await asAdmin<SessionReply>('GET', `/api/agents/sessions/${sessionId}`);
    expect(session.session).toMatchObject({ status: 'idle', paused: false, phase: 0 });
    expect(await page.getByRole('button', { name: 'Reset' }).isDisabled()).toBe(true);

    // Start runs the reset session again from its first phase.
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await selectedStatus(page).filter({ hasText: 'Processing' }).waitFor({ timeout: 10_000 });
    await expect
      .poll(async () => log.getByText('Started Runtime Test Team session').count(), {
        timeout: 10_000,
      })
      .toBe(2);

    // Agent Teams: the registry, with the test workflow agent busy.
    await page.getByRole('tab', { name: 'Agent Teams' }).click();
    const agentCard = page.getByRole('article', { name: 'Runtime test workflow' });
    await agentCard.waitFor();
    expect(await agentCard.textContent()).toMatch(/Active|Standby/);
    expect(
      await page.getByRole('article', { name: 'Runtime test quick run' }).textContent(),
    ).toContain('Inactive');
    await expectAxeClean(page, 'agent teams tab', { scope: 'main' });
    await screenshot(page, 'workflow-teams');

    // Research Stages: from the project's workflow stage.
    await page.getByRole('tab', { name: 'Research Stages' }).click();
    const stages = page.getByRole('list', {
      name: 'Research stages of Monetary policy rules in small open economies',
    });
    await stages.waitFor();
    const statusOf = (stage: string) =>
      stages.locator(`[data-stage="${stage}"]`).getAttribute('data-status');
    expect(await statusOf('ideation')).toBe('completed');
    expect(await statusOf('proposal')).toBe('completed');
    expect(await statusOf('literature')).toBe('in_progress');
    expect(await statusOf('data')).toBe('pending');
    expect(await stages.locator('li').count()).toBe(9);
    await expectAxeClean(page, 'research stages tab', { scope: 'main' });
    await screenshot(page, 'workflow-stages');

    await page.getByRole('tab', { name: 'Log' }).click();
    await log.waitFor();
    await screenshot(page, 'workflow-log');

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('works at phone width', async () => {
    const { context, page } = await signedInPage({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}/app/agent-workflow`);
    await page.getByRole('region', { name: 'Selected session' }).waitFor({ timeout: 15_000 });
    await page.locator('tr[data-session-id]').first().waitFor();
    await screenshot(page, 'workflow-overview');
    // Nothing wider than the screen but the table's own scroller.
    const overflow = await page.evaluate(() => {
      const clipped = (el: Element) => {
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
          if (getComputedStyle(p).overflowX !== 'visible') return true;
        }
        return false;
      };
      const wide = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .filter((el) => !clipped(el))
        .slice(0, 5)
        .map((el) => `${el.tagName}.${el.className}`.slice(0, 120));
      return {
        by: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        wide,
      };
    });
    expect(overflow.by, JSON.stringify(overflow.wide)).toBeLessThanOrEqual(0);
    await expectAxeClean(page, 'phone overview', { scope: 'main' });
    await page.getByRole('tab', { name: 'Log' }).click();
    await page.getByRole('log').waitFor();
    await expectAxeClean(page, 'phone log', { scope: 'main' });
    await screenshot(page, 'workflow-log');
    await context.close();
  });
});
