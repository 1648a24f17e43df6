import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Dashboard } from '../common/dashboard';
import {
  launchBrowser,
  SERVE_WITH_TEST_TEAM_COMMAND,
  startServer,
  type RunningServer,
} from './harness';
import {
  api,
  apiOk,
  expectAxeClean,
  newAccount,
  openPage,
  screenshot,
  VIEWPORTS,
  type Session,
} from './support';

/**
 * The dashboard against the real server with the runtime's test team: first
 * empty (labelled example events, '—' with the server's reason, empty workflow table), then with
 * projects, a dataset in use and a session waiting at a checkpoint (real events, a workflow row,
 * the research-area chart). Every number on screen is the server's.
 */

let server: RunningServer;
let browser: Browser;
let dana: Session;

async function dashboard(): Promise<Dashboard> {
  const r = await api<{ data: Dashboard }>(server, 'GET', '/api/dashboard', {
    token: dana.tokens.accessToken,
  });
  expect(r.status).toBe(200);
  return r.body.data;
}

/** A call as Dana that must succeed. */
function asDana<T>(method: string, path: string, body?: unknown): Promise<T> {
  return apiOk<T>(server, method, path, { token: dana.tokens.accessToken, body });
}

function open(width: number, height: number): Promise<Page> {
  return openPage(browser, server, dana, '/app', { width, height });
}

beforeAll(async () => {
  server = await startServer({ command: SERVE_WITH_TEST_TEAM_COMMAND });
  browser = await launchBrowser();
  ({ session: dana } = await newAccount(server, {
    email: 'dana.dashboard@e2e.example',
    password: 'dana-password-1',
    displayName: 'Dana Dashboard',
  }));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Dashboard', () => {
  it('starts empty and honest: labelled examples, no invented numbers', async () => {
    const data = await dashboard();
    expect(data.stats.work.sessionsCompleted).toBe(0);
    const page = await open(1440, 900);

    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByText('AI-powered economic research at your fingertips').waitFor();
    expect(await page.getByTestId('stat-projects-value').textContent()).toBe('0');
    expect(await page.getByTestId('stat-datasets-value').textContent()).toBe('0');
    expect(await page.getByTestId('stat-agents-value').textContent()).toBe('0');
    expect(await page.getByTestId('stat-areas-value').textContent()).toBe('0');

    // Only figures the record counts: no estimated time or quality gain.
    expect(await page.getByTestId('stat-sessions-value').textContent()).toBe('0');
    expect(await page.getByTestId('stat-verified-value').textContent()).toBe('0');
    expect(await page.getByTestId('stat-time').count()).toBe(0);

    // Recent Activity: examples, each marked, with a caption saying so.
    const examples = page.getByTestId('activity-examples');
    await examples.waitFor();
    const items = await examples.getByRole('listitem').count();
    expect(items).toBeGreaterThan(0);
    expect(await examples.getByText('Example', { exact: true }).count()).toBe(items);
    expect(await page.getByTestId('activity-examples-caption').textContent()).toContain('examples');

    // Workflows: an empty state, not sample rows; the chart waits for projects.
    await page.getByText('No workflow is running.', { exact: false }).waitFor();
    expect(await page.getByTestId('active-workflows').count()).toBe(0);
    await page
      .getByText('No projects yet: the distribution appears once you create projects.')
      .waitFor();

    // The teams launcher: 'ready' exactly for the teams this server runs, each a link; this
    // server has no model, so a team with a step that calls one 'needs a model'.
    const launcher = page.getByRole('region', { name: 'AI Research Teams' });
    const running = await asDana<{
      llm: { configured: boolean };
      teams: Array<{ id: string; available: boolean; phases: Array<{ requiresModel: boolean }> }>;
    }>('GET', '/api/agents/teams');
    const ready = (id: string) => {
      const team = running.teams.find((t) => t.id === id);
      if (!team?.available) return 'coming soon';
      const needsModel = !running.llm.configured && team.phases.some((p) => p.requiresModel);
      return needsModel ? 'needs a model' : 'ready';
    };
    expect(running.teams.some((t) => t.id === 'runtime-test')).toBe(true);
    expect(ready('ideation')).toBe('needs a model');
    for (const [name, label] of [
      ['Ideation', ready('ideation')],
      ['Literature Review', ready('literature')],
      ['Data', ready('data')],
      ['Model', ready('model')],
      ['Code', ready('code')],
      ['Customized Workflow', 'ready'],
    ]) {
      const link = launcher.getByRole('link', { name: new RegExp(`^${name}`) });
      expect(await link.textContent()).toContain(label);
    }
    expect(
      await launcher.getByRole('link', { name: /^Literature Review/ }).getAttribute('href'),
    ).toBe('/app/literature-team');
    expect(
      await launcher.getByRole('link', { name: /^Customized Workflow/ }).getAttribute('href'),
    ).toBe('/app/customized-workflow');

    await screenshot(page, 'dashboard-empty');
    await expectAxeClean(page, 'empty dashboard');
    await launcher.getByRole('link', { name: /^Ideation/ }).click();
    await page.waitForURL('**/app/ideation-team');
    await page.context().close();
  });

  it('shows real projects, datasets, a running workflow and its events', async () => {
    const areas = ['Labor Economics', 'Labor Economics', 'Macroeconomics'];
    const ids: string[] = [];
    for (const [i, researchArea] of areas.entries()) {
      const r = await asDana<{ data: { project: { id: string } } }>('POST', '/api/projects', {
        title: `Dashboard project ${i + 1}`,
        researchArea,
        status: i === 0 ? 'active' : 'planning',
      });
      ids.push(r.data.project.id);
    }
    const ds = await asDana<{ data: { dataset: { id: string } } }>('POST', '/api/datasets', {
      name: 'County employment (QCEW)',
      source: 'bls',
      dataType: 'panel',
    });
    await asDana('PUT', `/api/projects/${ids[0]}`, { datasets: [ds.data.dataset.id] });
    const started = await asDana<{ session: { sessionId: string } }>(
      'POST',
      '/api/agents/sessions',
      {
        teamId: 'runtime-test',
        input: { topic: 'Minimum wage spillovers' },
        projectId: ids[0],
      },
    );
    const sessionId = started.session.sessionId;
    // Wait until it pauses at its first checkpoint (an open session with logged events).
    for (let i = 0; i < 100; i++) {
      const s = await asDana<{ session: { status: string } }>(
        'GET',
        `/api/agents/sessions/${sessionId}`,
      );
      if (s.session.status === 'waiting_for_input') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const data = await dashboard();
    expect(data.stats.totalProjects).toBe(3);
    expect(data.recentActivity.length).toBeGreaterThan(0);
    expect(data.activeWorkflows.length).toBe(1);

    for (const vp of VIEWPORTS) {
      const page = await open(vp.width, vp.height);
      expect(await page.getByTestId('stat-projects-value').textContent()).toBe('3');
      expect(await page.getByTestId('stat-projects').textContent()).toContain(
        `${data.stats.activeProjects} active`,
      );
      expect(await page.getByTestId('stat-datasets-value').textContent()).toBe('1');
      expect(await page.getByTestId('stat-datasets').textContent()).toContain('1 in use');
      expect(await page.getByTestId('stat-areas-value').textContent()).toBe('2');

      // Recent projects: the 3 most recently updated, linking to their pages.
      const recent = page.getByTestId('recent-projects');
      expect(await recent.getByRole('link').count()).toBe(3);
      expect(await recent.getByRole('link').first().textContent()).toBe('Dashboard project 1');
      expect(await recent.getByRole('link').first().getAttribute('href')).toBe(
        `/app/projects/${ids[0]}`,
      );

      // Real events now: no example marks.
      const activity = page.getByTestId('recent-activity');
      await activity.waitFor();
      expect(await page.getByTestId('activity-examples').count()).toBe(0);
      expect(await activity.getByRole('listitem').count()).toBe(
        Math.min(10, data.recentActivity.length),
      );
      expect(await activity.textContent()).toContain(data.recentActivity[0]?.message ?? '?');

      // The open session as a workflow row, with its project.
      const table = page.getByTestId('active-workflows');
      await table.waitFor();
      expect(await table.locator('tbody tr').count()).toBe(1);
      const row = (await table.locator('tbody tr').first().textContent()) ?? '';
      expect(row).toContain('Dashboard project 1');
      expect(row).toContain('Waiting for Input');

      // The chart draws one bar per area with the area names on the axis.
      const chart = page.getByRole('region', { name: 'Research Areas' });
      const svgText = (await chart.locator('svg').first().textContent()) ?? '';
      expect(svgText).toContain('Labor Economics');
      expect(svgText).toContain('Macroeconomics');
      expect(svgText).toContain('Projects (count)');
      await screenshot(page, 'dashboard');
      await expectAxeClean(page, `dashboard (${vp.name})`);
      await page.context().close();
    }
  });
});
