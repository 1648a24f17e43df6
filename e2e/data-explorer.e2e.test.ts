import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  api,
  choose,
  expectAxeClean,
  newAccount,
  openPage,
  pageReady,
  screenshot,
  signIn,
  VIEWPORTS,
} from './support';

/**
 * Data Explorer (platform.md §2) against the real server: the catalog starts empty, a dataset
 * added through the dialog is listed with its §3 fields, search and the source filter work
 * (all sources by default, newest first), and the three tools that come with the Data team say
 * so honestly (no charts); axe-clean at phone and desktop width.
 */

const USER = {
  email: 'eli.explorer@e2e.example',
  password: 'eli-password-1',
  displayName: 'Eli Explorer',
};

let server: RunningServer;
let browser: Browser;

async function open(path: string, width = 1440, height = 900): Promise<Page> {
  const session = await signIn(server, USER.email, USER.password);
  return openPage(browser, server, session, path, { width, height });
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await newAccount(server, USER);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Data Explorer', () => {
  it('adds a dataset and lists it; search and source filter work', async () => {
    const page = await open('/app/data-explorer');
    await page.getByRole('tab', { name: 'Available Datasets', selected: true }).waitFor();
    await page.getByText('No datasets yet').waitFor();
    expect(await page.getByRole('combobox', { name: 'Source' }).textContent()).toContain(
      'All sources',
    );
    await expectAxeClean(page, 'empty data explorer');

    await page.getByRole('button', { name: 'Add dataset' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add dataset' });
    const add = dialog.getByRole('button', { name: 'Add dataset' });
    expect(await add.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Quarterly Census of Employment and Wages');
    await choose(page, 'Source', 'IMF');
    await choose(page, 'Data type', 'Panel');
    await dialog.getByLabel('Description').fill('County-level employment and wages by industry.');
    await dialog
      .getByLabel('Fields')
      .fill('county_fips: string: FIPS code\nemployment: integer\navg_weekly_wage: number');
    await dialog.getByLabel('Record count').fill('12x');
    await dialog.getByText('A whole number').waitFor();
    expect(await add.isDisabled()).toBe(true);
    await dialog.getByLabel('Record count').fill('3200000');
    await dialog.getByLabel('Period start').fill('2001Q1');
    await dialog.getByLabel('Period end').fill('2024Q4');
    await dialog.getByLabel('Format').fill('csv');
    await dialog.getByLabel('License').fill('Public domain');
    await choose(page, 'Integration level', 'Full');
    await dialog.getByLabel('Available through an API').check();
    await dialog.getByLabel('Citation').fill('U.S. Bureau of Labor Statistics, QCEW.');
    await expectAxeClean(page, 'add dataset dialog');
    await add.click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByRole('article', { name: 'Quarterly Census of Employment and Wages' });
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    for (const part of [
      'IMF',
      'Panel',
      'Full integration',
      'API',
      '3,200,000',
      '2001Q1 – 2024Q4',
      'csv',
      'Public domain',
      'Fields (3)',
      'county_fips: string',
      'U.S. Bureau of Labor Statistics, QCEW.',
    ])
      expect(text).toContain(part);

    // The server holds it, with the fields as typed.
    const token = (await signIn(server, USER.email, USER.password)).tokens.accessToken;
    const list = await api<{
      data: { datasets: Array<{ name: string; recordCount: number; fields: unknown[] }> };
    }>(server, 'GET', '/api/datasets', { token });
    expect(list.body.data.datasets).toHaveLength(1);
    expect(list.body.data.datasets[0]).toMatchObject({
      recordCount: 3200000,
      fields: [
        { name: 'county_fips', type: 'string', description: 'FIPS code' },
        { name: 'employment', type: 'integer', description: '' },
        { name: 'avg_weekly_wage', type: 'number', description: '' },
      ],
    });

    // A second entry: the newest comes first.
    await api(server, 'POST', '/api/datasets', {
      token,
      body: { name: 'Real GDP (GDPC1)', source: 'fred', dataType: 'time_series' },
    });
    await page.reload();
    await pageReady(page);
    const names = () =>
      page.getByRole('article').evaluateAll((a) => a.map((e) => e.getAttribute('aria-label')));
    expect(await names()).toEqual(['Real GDP (GDPC1)', 'Quarterly Census of Employment and Wages']);

    // Source filter and search.
    await choose(page, 'Source', 'FRED');
    await page.waitForFunction(() => document.querySelectorAll('article').length === 1);
    expect(await names()).toEqual(['Real GDP (GDPC1)']);
    await choose(page, 'Source', 'World Bank');
    await page.getByText('No datasets found').waitFor();
    await choose(page, 'Source', 'All sources');
    await page.getByRole('searchbox', { name: 'Search datasets' }).fill('wages');
    await page.waitForFunction(() => document.querySelectorAll('article').length === 1);
    expect(await names()).toEqual(['Quarterly Census of Employment and Wages']);
    await page.getByRole('searchbox', { name: 'Search datasets' }).fill('');
    await page.waitForFunction(() => document.querySelectorAll('article').length === 2);
    await screenshot(page, 'data-explorer');
    await expectAxeClean(page, 'data explorer with datasets');
    await page.context().close();
  });

  it('offers the Data team tools in the other tabs (e2e/data-team.e2e.test.ts uses them)', async () => {
    for (const vp of VIEWPORTS) {
      const page = await open('/app/data-explorer', vp.width, vp.height);
      for (const tab of ['Data Visualization', 'Data Integration', 'Feature Engineering']) {
        await page.getByRole('tab', { name: tab }).click();
        const panel = page.getByRole('tabpanel');
        await panel.getByRole('combobox').first().waitFor();
        expect(await panel.getByText('Arrives with the Data team').count()).toBe(0);
        await expectAxeClean(page, `${tab} (${vp.name})`);
      }
      await screenshot(page, 'data-explorer-tab');
      await page.getByRole('tab', { name: 'Available Datasets' }).click();
      await page.getByRole('article').first().waitFor();
      await screenshot(page, 'data-explorer');
      await expectAxeClean(page, `data explorer (${vp.name})`);
      await page.context().close();
    }
  });
});
