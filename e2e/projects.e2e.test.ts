import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  api,
  expectAxeClean,
  newAccount,
  openSignedIn,
  pageReady,
  screenshot,
  VIEWPORTS,
  type Session,
} from './support';

/**
 * Project Manager and project page against the real server: a researcher creates a project (the
 * Create rule of platform.md §5), sees it on the dashboard and in the list, favorites it, edits
 * it, opens it, and deletes it after the exact confirm question; a viewer member sees no Edit or
 * Delete; search from the URL; axe-clean at phone and desktop width.
 */

const DELETE_QUESTION =
  'Are you sure you want to delete this project? This action cannot be undone.';

let server: RunningServer;
let browser: Browser;
let rita: Session;
let vera: Session;

interface ProjectRow {
  id: string;
  title: string;
  description: string;
  isFavorite: boolean;
  status: string;
}

async function listProjects(s: Session) {
  const r = await api<{ data: { projects: ProjectRow[]; total: number } }>(
    server,
    'GET',
    '/api/projects',
    { token: s.tokens.accessToken },
  );
  return r.body.data.projects;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ session: rita } = await newAccount(server, {
    email: 'rita.projects@e2e.example',
    password: 'rita-password-1',
    displayName: 'Rita Researcher',
  }));
  ({ session: vera } = await newAccount(server, {
    email: 'vera.viewer@e2e.example',
    password: 'vera-password-1',
    displayName: 'Vera Viewer',
    role: 'viewer',
  }));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(width = 1440, height = 900): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width, height } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  return page;
}

describe('Project Manager', () => {
  it('creates, lists, favorites, edits, opens and deletes a project', async () => {
    const page = await newPage();
    await openSignedIn(page, server, rita, '/app/project-manager');
    await pageReady(page);

    // Nothing yet: the spec's empty texts.
    await page.getByText('No projects found').waitFor();
    await page.getByText('Create a new project to get started').waitFor();
    await expectAxeClean(page, 'empty project manager');

    // New Project: Create only once title AND research area are filled.
    await page.getByRole('button', { name: 'New Project' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Project' });
    const create = dialog.getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Title').fill('Minimum wage and local employment');
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: 'Research area' }).fill('Labor Economics');
    await page.keyboard.press('Escape'); // closes the suggestions, not the dialog
    expect(await create.isDisabled()).toBe(false);
    // Whitespace is not a title.
    await dialog.getByLabel('Title').fill('   ');
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Title').fill('Minimum wage and local employment');
    // Status defaults to planning.
    expect(await dialog.getByRole('combobox', { name: 'Status' }).textContent()).toContain(
      'Planning',
    );
    await expectAxeClean(page, 'new project dialog');
    await create.click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByRole('article', { name: 'Minimum wage and local employment' });
    await card.waitFor();
    expect(await card.getByTestId('project-status').textContent()).toBe('Planning');
    let [stored] = await listProjects(rita);
    expect(stored).toMatchObject({
      title: 'Minimum wage and local employment',
      status: 'planning',
      isFavorite: false,
    });

    // The dashboard shows it among the recent projects, and counts it.
    await page.goto(`${server.baseUrl}/app`);
    await pageReady(page);
    await page
      .getByTestId('recent-projects')
      .getByText('Minimum wage and local employment')
      .waitFor();
    expect(await page.getByTestId('stat-projects-value').textContent()).toBe('1');
    await page.goto(`${server.baseUrl}/app/project-manager`);
    await pageReady(page);

    // Favorite toggle: pressed state and the server agree.
    const star = card.getByTestId('favorite-toggle');
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="favorite-toggle"]')?.getAttribute('aria-pressed') ===
        'true',
    );
    [stored] = await listProjects(rita);
    expect(stored?.isFavorite).toBe(true);

    // Edit: a long description is cut to 150 characters on the card.
    const longText = 'Employment effects of minimum wage increases across US counties. '.repeat(4);
    await card.getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Project' });
    await edit.getByLabel('Title').fill('Minimum wages and county employment');
    await edit.getByLabel('Description').fill(longText);
    await edit.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Active' }).click();
    await edit
      .getByLabel('Research questions')
      .fill('Do higher minimum wages reduce teen employment?');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    const edited = page.getByRole('article', { name: 'Minimum wages and county employment' });
    await edited.waitFor();
    expect(await edited.getByTestId('project-status').textContent()).toBe('Active');
    const shown = (await edited.getByTestId('project-description').textContent()) ?? '';
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(151);
    expect(longText.trim().startsWith(shown.slice(0, -1))).toBe(true);
    [stored] = await listProjects(rita);
    expect(stored).toMatchObject({
      title: 'Minimum wages and county employment',
      status: 'active',
    });
    expect(stored?.description).toBe(longText.trim());

    // Status tabs filter: not under Planning, back under Active.
    await page.getByRole('tab', { name: 'Planning' }).click();
    await page.getByText('No projects found').waitFor();
    await page.getByRole('tab', { name: 'Active' }).click();
    await edited.waitFor();
    await page.getByRole('tab', { name: 'All' }).click();
    await screenshot(page, 'projects');
    await expectAxeClean(page, 'project manager with a project');

    // Open -> the project page with its details.
    await edited.getByRole('link', { name: /^Open/ }).click();
    await page.waitForURL(`**/app/projects/${stored?.id}`);
    await pageReady(page);
    await page
      .getByRole('heading', { level: 1, name: 'Minimum wages and county employment' })
      .waitFor();
    await page.getByText('Do higher minimum wages reduce teen employment?').first().waitFor();
    await page.getByRole('heading', { name: 'Research record' }).waitFor();
    await screenshot(page, 'project-page');
    await expectAxeClean(page, 'project page');

    // Delete asks the exact question; Cancel keeps it, Delete removes it.
    await page.goto(`${server.baseUrl}/app/project-manager`);
    await pageReady(page);
    await edited.getByRole('button', { name: /^Delete/ }).click();
    let confirm = page.getByRole('dialog', { name: 'Delete project' });
    expect((await confirm.textContent()) ?? '').toContain(DELETE_QUESTION);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await listProjects(rita)).toHaveLength(1);
    await edited.getByRole('button', { name: /^Delete/ }).click();
    confirm = page.getByRole('dialog', { name: 'Delete project' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No projects found').waitFor();
    expect(await listProjects(rita)).toHaveLength(0);
    await page.context().close();
  });

  it('reads ?search= from the URL and says when nothing matches', async () => {
    for (const title of ['Inflation expectations survey', 'Housing supply elasticity']) {
      const r = await api(server, 'POST', '/api/projects', {
        token: rita.tokens.accessToken,
        body: { title, researchArea: 'Macroeconomics' },
      });
      expect(r.status).toBe(201);
    }
    const page = await newPage();
    await openSignedIn(page, server, rita, '/app/project-manager?search=housing');
    await pageReady(page);
    await page.getByRole('article', { name: 'Housing supply elasticity' }).waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    expect(
      await page.locator('main').getByRole('searchbox', { name: 'Search projects' }).inputValue(),
    ).toBe('housing');

    // Typing updates the list (and the URL).
    await page
      .locator('main')
      .getByRole('searchbox', { name: 'Search projects' })
      .fill('no such topic');
    await page.getByText('No projects match your search for "no such topic"').waitFor();
    expect(page.url()).toContain('search=no+such+topic');
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await page.getByRole('article', { name: 'Inflation expectations survey' }).waitFor();
    expect(await page.getByRole('article').count()).toBe(2);

    // Sort: name A-Z puts Housing first; the default (newest) puts it first too, Z-A last.
    await page.getByRole('button', { name: /^Sort:/ }).click();
    await page.getByRole('menuitem', { name: 'Name (Z-A)' }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('article')?.getAttribute('aria-label') ===
        'Inflation expectations survey',
    );
    await page.context().close();
  });

  it('shows a viewer member no Edit or Delete, and a phone layout without errors', async () => {
    const created: Record<string, string> = {};
    for (const title of ['Shared: regional housing markets', 'Private: pension reform draft']) {
      const r = await api<{ data: { project: { id: string } } }>(server, 'POST', '/api/projects', {
        token: rita.tokens.accessToken,
        body: { title, researchArea: 'Urban Economics' },
      });
      created[title] = r.body.data.project.id;
    }
    const target = { id: created['Shared: regional housing markets'] };
    const add = await api(server, 'POST', `/api/projects/${target?.id}/members`, {
      token: rita.tokens.accessToken,
      body: { email: 'vera.viewer@e2e.example', role: 'viewer' },
    });
    expect(add.status).toBe(200);

    const page = await newPage(VIEWPORTS[0].width, VIEWPORTS[0].height);
    await openSignedIn(page, server, vera, '/app/project-manager');
    await pageReady(page);
    const card = page.getByRole('article', { name: 'Shared: regional housing markets' });
    await card.waitFor();
    // Only what is shared with the viewer is listed.
    expect(await page.getByRole('article').count()).toBe(1);
    expect(await card.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    expect(await card.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await card.getByRole('link', { name: /^Open/ }).count()).toBe(1);
    // A viewer account cannot create projects either.
    expect(await page.getByRole('button', { name: 'New Project' }).count()).toBe(0);
    await screenshot(page, 'projects-viewer');
    await expectAxeClean(page, 'project manager (viewer, phone)');

    await card.getByRole('link', { name: /^Open/ }).click();
    await pageReady(page);
    await page
      .getByRole('heading', { level: 1, name: 'Shared: regional housing markets' })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await screenshot(page, 'project-page-viewer');
    await expectAxeClean(page, 'project page (viewer, phone)');

    // A project the viewer may not see: the page says so instead of failing.
    await page.goto(`${server.baseUrl}/app/projects/${created['Private: pension reform draft']}`);
    await page.getByText('Project not found').waitFor();
    // An address that is not a project id at all: the same answer, asked once (a 400 is not
    // worth retrying).
    let asked = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/projects/not-a-project-id')) asked += 1;
    });
    await page.goto(`${server.baseUrl}/app/projects/not-a-project-id`);
    await page.getByText('Project not found').waitFor();
    await page.waitForTimeout(1_500);
    expect(asked).toBe(1);
    await page.context().close();
  });

  it('filters favorites and has a Paused tab, at phone and desktop width', async () => {
    const { session: paula } = await newAccount(server, {
      email: 'paula.filters@e2e.example',
      password: 'paula-password-1',
      displayName: 'Paula Filters',
    });
    const make = async (title: string, status: string) => {
      const r = await api<{ data: { project: { id: string } } }>(server, 'POST', '/api/projects', {
        token: paula.tokens.accessToken,
        body: { title, researchArea: 'Public Finance', status },
      });
      expect(r.status).toBe(201);
      return r.body.data.project.id;
    };
    const starred = await make('Carbon tax incidence', 'active');
    await make('Paused: property tax capitalisation', 'paused');
    await make('VAT pass-through', 'planning');
    const fav = await api(server, 'PUT', `/api/projects/${starred}/favorite`, {
      token: paula.tokens.accessToken,
    });
    expect(fav.status).toBe(200);

    for (const vp of VIEWPORTS) {
      const page = await newPage(vp.width, vp.height);
      await openSignedIn(page, server, paula, '/app/project-manager');
      await pageReady(page);
      await page.getByRole('article', { name: 'VAT pass-through' }).waitFor();
      expect(await page.getByRole('article').count()).toBe(3);

      // Paused has its own tab.
      await page.getByRole('tab', { name: 'Paused' }).click();
      await page.getByRole('article', { name: 'Paused: property tax capitalisation' }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('article').length === 1);
      expect(page.url()).toContain('status=paused');
      await page.getByRole('tab', { name: 'All' }).click();
      await page.waitForFunction(() => document.querySelectorAll('article').length === 3);

      // Favorites only: a pressed toggle, kept in the address.
      const favorites = page.getByRole('button', { name: 'Favorites', exact: true });
      expect(await favorites.getAttribute('aria-pressed')).toBe('false');
      await favorites.click();
      await page.waitForFunction(() => document.querySelectorAll('article').length === 1);
      await page.getByRole('article', { name: 'Carbon tax incidence' }).waitFor();
      expect(await favorites.getAttribute('aria-pressed')).toBe('true');
      expect(page.url()).toContain('favorite=1');
      await expectAxeClean(page, `project manager favorites (${vp.name})`);
      await screenshot(page, 'projects-favorites');
      await page.reload();
      await pageReady(page);
      await page.getByRole('article', { name: 'Carbon tax incidence' }).waitFor();
      expect(await page.getByRole('article').count()).toBe(1);

      // Both filters: no favorite is paused.
      await page.getByRole('tab', { name: 'Paused' }).click();
      await page.getByText('No favorite projects here').waitFor();
      await page.getByText('Mark a project with its star to find it under Favorites.').waitFor();
      await expectAxeClean(page, `project manager paused favorites (${vp.name})`);
      await page.getByRole('button', { name: 'Clear search and filters' }).click();
      await page.waitForFunction(() => document.querySelectorAll('article').length === 3);
      expect(await favorites.getAttribute('aria-pressed')).toBe('false');
      await page.context().close();
    }
  });

  it('says on the field when no approved account uses a member e-mail', async () => {
    const r = await api<{ data: { project: { id: string } } }>(server, 'POST', '/api/projects', {
      token: rita.tokens.accessToken,
      body: { title: 'Team project on trade shocks', researchArea: 'Trade' },
    });
    const id = r.body.data.project.id;
    for (const vp of VIEWPORTS) {
      const page = await newPage(vp.width, vp.height);
      await openSignedIn(page, server, rita, `/app/projects/${id}`);
      await pageReady(page);
      const email = page.getByLabel('Member e-mail');
      await email.fill('nobody.here@e2e.example');
      await page.getByRole('button', { name: 'Add member' }).click();
      const help = page.getByText(/^No approved account uses this e-mail address\./);
      await help.waitFor();
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      // The sentence describes the field; the server's raw text is not shown.
      const describedBy = (await email.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain(
        'ask your colleague to register',
      );
      expect(await page.getByText('email: no approved account').count()).toBe(0);
      await expectAxeClean(page, `unknown member e-mail (${vp.name})`);
      await screenshot(page, 'project-member-unknown');
      // Typing again clears it; a known account is added.
      await email.fill('vera.viewer@e2e.example');
      await help.waitFor({ state: 'detached' });
      expect(await email.getAttribute('aria-invalid')).toBe('false');
      await page.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Viewer' }).click();
      await page.getByRole('button', { name: 'Add member' }).click();
      await page.getByText('vera.viewer@e2e.example · Viewer').waitFor();
      await page.getByRole('button', { name: 'Remove Vera Viewer' }).click();
      await page.getByText('vera.viewer@e2e.example · Viewer').waitFor({ state: 'detached' });
      await page.context().close();
    }
  });
});
