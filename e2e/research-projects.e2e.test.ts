import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDataFixtures, type DataFixtures } from '../test/fixtures/data-sources/server';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  apiOk,
  DESKTOP,
  expectAxeClean,
  newAccount,
  newPage,
  openSignedIn,
  PHONE,
  screenshot,
  type Account,
  type Session,
} from './support';

/**
 * Research projects in Chromium against the real server, the Data team answered by the fixture
 * sources (it needs no language model, so every run is real): a team run from a project's
 * "Run a team", its session kept in the address through a reload and a second Start, its report
 * and dataset in the project's research record; the finished session reopened by its link, by
 * the owner and by a viewer of the project (read-only); a three-step Customized Workflow built on
 * a phone, started and followed as one run, each checkpoint answered through the run view's link
 * to the team's screen; the viewer follows the workflow without buttons.
 */

let server: RunningServer;
let fixtures: DataFixtures;
let browser: Browser;
let owner: Account;
let viewer: Account;

const JAPAN_GDP = 'JPN/NY.GDP.MKTP.CD';

beforeAll(async () => {
  fixtures = await startDataFixtures();
  server = await startServer({
    env: {
      WORLDBANK_BASE_URL: fixtures.urls.worldbank,
      PROFILING_THREADS: '1',
      // The fixture server is on 127.0.0.1, which URL datasets refuse unless allowed (tests only).
      DATA_URL_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    },
  });
  browser = await launchBrowser();
  owner = (await newAccount(server, { displayName: 'Rita Researcher' })) as Account;
  viewer = (await newAccount(server, { displayName: 'Vera Viewer' })) as Account;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fixtures?.close();
});

/** A project of the owner's, with the viewer as a member who reads it. */
async function newProject(title: string): Promise<string> {
  const token = owner.session.tokens.accessToken;
  const created = await apiOk<{ data: { project: { id: string } } }>(
    server,
    'POST',
    '/api/projects',
    { token, body: { title, researchArea: 'Macroeconomics' } },
  );
  const id = created.data.project.id;
  await apiOk(server, 'POST', `/api/projects/${id}/members`, {
    token,
    body: { email: viewer.email, role: 'viewer' },
  });
  return id;
}

/**
 * A signed-in page at `path`, once its heading is there. The shared openPage waits 20 s for the
 * page to settle; the runs here share a loaded machine, so the heading gets longer.
 */
async function open(
  session: Session,
  path: string,
  heading: string,
  size: { width: number; height: number } = DESKTOP,
): Promise<Page> {
  const { page } = await newPage(browser, size);
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await openSignedIn(page, server, session, path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 60_000 });
  return page;
}

const checkpoint = (page: Page) =>
  page.getByRole('heading', { name: 'Checkpoint: Data Profile Review' });
const statusChip = (page: Page, status: string) =>
  page.getByRole('status', { name: `Status: ${status}` });
const params = (page: Page) => new URL(page.url()).searchParams;

describe('a team run from a project', () => {
  it('keeps its session in the address and lands in the research record', async () => {
    const projectId = await newProject('Growth in Japan');
    const page = await open(owner.session, `/app/projects/${projectId}`, 'Growth in Japan');
    await page.getByText('No team has run on this project yet.').waitFor({ timeout: 60_000 });

    // Run a team: the Data screen opens with the project selected.
    await page.getByRole('link', { name: 'Run Data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Data Team' }).waitFor({ timeout: 60_000 });
    expect(params(page).get('projectId')).toBe(projectId);
    const project = page.getByRole('combobox', { name: 'Project' });
    await expect.poll(() => project.textContent()).toBe('Growth in Japan');
    await page.getByText('What the team saves goes into this project.').waitFor();

    await page.getByLabel('Data source').click();
    await page.getByRole('option', { name: 'Public API' }).click();
    await page.getByLabel('Dataset ID').fill(JAPAN_GDP);
    await page.getByRole('button', { name: 'Start Analysis' }).click();

    // The session is in the address from the start, replacing the entry.
    await page.waitForURL(/[?&]sessionId=/);
    const sessionId = params(page).get('sessionId')!;
    await checkpoint(page).waitFor({ timeout: 120_000 });

    // A reload at the checkpoint reopens it; the project stays fixed while it waits.
    await page.reload();
    await checkpoint(page).waitFor({ timeout: 60_000 });
    expect(params(page).get('sessionId')).toBe(sessionId);
    await page.getByText('The session shown stays in the project it started in.').waitFor();

    // The form holds the session's own inputs after the reload, not an empty form.
    await expect.poll(() => page.getByLabel('Dataset ID').inputValue()).toBe(JAPAN_GDP);
    expect(await page.getByRole('combobox', { name: 'Data source' }).textContent()).toBe(
      'Public API',
    );

    // Start again from it while it waits: asked first; "Back to it" starts nothing.
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    const question = page.getByRole('dialog', { name: 'A Data session is still open' });
    await question.waitFor();
    expect(await question.textContent()).toContain('waiting for input at checkpoint 1');
    await screenshot(page, 'team-start-question');
    await question.getByRole('button', { name: 'Back to it' }).click();
    await question.waitFor({ state: 'detached' });
    expect(params(page).get('sessionId')).toBe(sessionId);

    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await statusChip(page, 'Completed').waitFor({ timeout: 120_000 });

    // The research record: the session with who ran it, its report and its dataset.
    await page.goto(`${server.baseUrl}/app/projects/${projectId}`);
    const sessions = page.getByRole('list', { name: 'Sessions of this project' });
    await sessions.waitFor();
    const row = sessions.getByRole('listitem').filter({ hasText: 'Started by Rita Researcher' });
    await row.getByText('Completed').waitFor();
    const link = row.getByRole('link', { name: 'Data' });
    expect(await link.getAttribute('href')).toBe(
      `/app/data-team?sessionId=${sessionId}&projectId=${projectId}`,
    );
    const documents = page.getByRole('list', { name: 'Documents of this project' });
    expect(await documents.getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await documents.textContent()).toContain('saved by a team');
    expect(
      await page
        .getByRole('list', { name: 'Datasets of this project' })
        .getByRole('listitem')
        .count(),
    ).toBeGreaterThan(0);
    await page.getByRole('list', { name: 'Research stages' }).getByText('Data (reached)').waitFor();
    await screenshot(page, 'project-record');
    await expectAxeClean(page, 'project research record');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'project-record');
    await page.setViewportSize(DESKTOP);

    // The finished session reopened by its link from the record.
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Data Team' }).waitFor();
    await statusChip(page, 'Completed').waitFor({ timeout: 60_000 });
    expect(params(page).get('sessionId')).toBe(sessionId);
    await page.context().close();

    // The same link shared with a viewer of the project: it opens, read-only.
    const shared = await open(
      viewer.session,
      `/app/data-team?sessionId=${sessionId}&projectId=${projectId}`,
      'Data Team',
    );
    await statusChip(shared, 'Completed').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => shared.getByRole('combobox', { name: 'Project' }).textContent())
      .toBe('Growth in Japan (read only)');
    await shared.getByText(/You can read this project but not add to it/).waitFor();
    await expect.poll(() => shared.getByLabel('Dataset ID').inputValue()).toBe(JAPAN_GDP);
    await screenshot(shared, 'team-session-shared');
    await shared.context().close();
  }, 600_000);
});

describe('a Customized Workflow', () => {
  async function stepStatus(page: Page, step: number, status: string, timeout = 180_000) {
    await page
      .getByRole('listitem', { name: new RegExp(`^Step ${step}: Data$`) })
      .getByText(status, { exact: true })
      .waitFor({ timeout });
  }

  it('is built on a phone, started, and followed as one run through each checkpoint', async () => {
    const projectId = await newProject('Three datasets');
    const page = await open(
      owner.session,
      `/app/customized-workflow?projectId=${projectId}`,
      'Customized Workflow',
      PHONE,
    );
    await page.getByRole('heading', { name: 'Build a workflow' }).waitFor();
    await page.getByText('No workflow has run on this project yet.').waitFor({ timeout: 60_000 });

    await page.getByLabel('Workflow name').fill('GDP of Japan and the PWT twice');
    for (let i = 0; i < 3; i++) {
      await page.getByRole('combobox', { name: 'Team' }).click();
      await page.getByRole('option', { name: 'Data', exact: true }).click();
      await page.getByRole('button', { name: 'Add step' }).click();
    }
    const step = (n: number) => page.getByRole('listitem', { name: `Step ${n}: Data` });
    const fromUrl = async (n: number, address: string) => {
      await step(n).getByLabel('Data source').click();
      await page.getByRole('option', { name: 'URL' }).click();
      await step(n).getByLabel('Dataset').fill(address);
    };
    await fromUrl(1, `${fixtures.urls.files}/pwt.csv`);
    await step(2).getByLabel('Dataset').fill(JAPAN_GDP);
    // Reorder: Japan first, with the buttons.
    await page.getByRole('button', { name: 'Move step 2 up' }).click();
    await page.getByRole('status').filter({ hasText: 'Data moved to step 1.' }).waitFor();
    expect(await step(1).getByLabel('Dataset').inputValue()).toBe(JAPAN_GDP);
    // The same file again, through a redirect.
    await fromUrl(3, `${fixtures.urls.files}/redirect-ok`);
    await screenshot(page, 'workflow-builder');
    await expectAxeClean(page, 'workflow builder');

    await page.getByRole('button', { name: 'Create and start' }).click();
    await page.getByRole('heading', { name: 'GDP of Japan and the PWT twice' }).waitFor();
    await page.waitForURL(/[?&]workflowId=/);
    const workflowId = params(page).get('workflowId')!;

    for (const n of [1, 2, 3]) {
      await stepStatus(page, n, 'Waiting for input');
      if (n === 1) {
        await screenshot(page, 'workflow-run-waiting');
        await page.setViewportSize(DESKTOP);
        await screenshot(page, 'workflow-run-waiting');
        await page.setViewportSize(PHONE);
      }
      // Answer the step's checkpoint on the team's own screen, from the run view's link.
      await step(n).getByRole('link', { name: "Answer on the team's screen" }).click();
      await page.getByRole('heading', { level: 1, name: 'Data Team' }).waitFor({ timeout: 60_000 });
      expect(params(page).get('projectId')).toBe(projectId);
      await checkpoint(page).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Approve & Continue' }).click();
      await statusChip(page, 'Completed').waitFor({ timeout: 120_000 });
      await page.goBack();
      await page
        .getByRole('heading', { name: 'GDP of Japan and the PWT twice' })
        .waitFor({ timeout: 60_000 });
      await stepStatus(page, n, 'Completed', 60_000);
    }

    // The whole run: every step completed, what fed it and what it made.
    await page
      .getByRole('status')
      .filter({ hasText: 'Completed' })
      .first()
      .waitFor({ timeout: 60_000 });
    const first = step(1);
    expect(await first.textContent()).toContain(`world_bank: ${JAPAN_GDP}`);
    expect(await first.getByRole('heading', { name: 'Outputs' }).count()).toBe(1);
    expect(await step(2).textContent()).toContain('url:');
    expect(await step(3).textContent()).toContain('redirect-ok');
    await screenshot(page, 'workflow-run-completed');
    await expectAxeClean(page, 'workflow run completed');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'workflow-run-completed');
    await page.context().close();

    // A viewer of the project follows it, with nothing to start, answer or cancel.
    const follow = await open(
      viewer.session,
      `/app/customized-workflow?projectId=${projectId}&workflowId=${workflowId}`,
      'Customized Workflow',
    );
    await follow.getByRole('heading', { name: 'GDP of Japan and the PWT twice' }).waitFor();
    await follow.getByText(/You can follow this workflow/).waitFor();
    expect(await follow.getByRole('button', { name: 'Cancel workflow' }).count()).toBe(0);
    await follow.getByRole('button', { name: 'New workflow' }).click();
    await follow.getByText(/only its owner and editors can start one/).waitFor();
    expect(await follow.getByRole('button', { name: 'Create and start' }).count()).toBe(0);
    await follow.context().close();
  }, 900_000);
});
