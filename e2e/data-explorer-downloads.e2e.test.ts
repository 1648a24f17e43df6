import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  expectAxeClean,
  newAccount,
  openPage,
  pageReady,
  screenshot,
  signIn,
  VIEWPORTS,
} from './support';

/**
 * The Data Explorer's exports and memory, in Chromium at phone and desktop width: a dataset
 * uploaded to the Explorer downloads from its card as CSV (the uploaded values) and as Parquet
 * (a Parquet file); the last searches come back after a reload; sources without a connector are
 * listed as "Not connected" and cannot be picked.
 */

const USER = {
  email: 'dora.downloads@e2e.example',
  password: 'dora-password-1',
  displayName: 'Dora Downloads',
};
const CSV = 'country,year,gdp\nChad,2019,11.3\nPeru,2020,201.7\n';

let server: RunningServer;
let browser: Browser;
let token: string;

async function open(width: number, height: number): Promise<Page> {
  const session = await signIn(server, USER.email, USER.password);
  return openPage(browser, server, session, '/app/data-explorer', { width, height });
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await newAccount(server, USER);
  token = (await signIn(server, USER.email, USER.password)).tokens.accessToken;
  const form = new FormData();
  form.set('name', 'GDP sample');
  form.set('file', new Blob([CSV], { type: 'text/csv' }), 'gdp.csv');
  const res = await fetch(`${server.baseUrl}/api/agents/data-team/datasets/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function downloadAs(page: Page, format: 'CSV' | 'Parquet') {
  const card = page.getByRole('article', { name: 'GDP sample' });
  await card.getByRole('button', { name: 'Download GDP sample' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: new RegExp(`^${format} `) }).click(),
  ]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(file) };
}

describe('Data Explorer downloads, recent searches and sources', () => {
  for (const vp of VIEWPORTS) {
    it(`downloads a dataset as CSV and Parquet from its card (${vp.name})`, async () => {
      const page = await open(vp.width, vp.height);
      await page.getByRole('article', { name: 'GDP sample' }).waitFor();

      const csv = await downloadAs(page, 'CSV');
      expect(csv.name).toBe('GDP sample.csv');
      expect(csv.bytes.toString('utf8')).toBe(CSV);

      const parquet = await downloadAs(page, 'Parquet');
      expect(parquet.name).toBe('GDP sample.parquet');
      expect(parquet.bytes.subarray(0, 4).toString()).toBe('PAR1');
      expect(parquet.bytes.subarray(-4).toString()).toBe('PAR1');

      await page.getByRole('button', { name: 'Download GDP sample' }).click();
      await page.getByRole('menu').waitFor();
      await screenshot(page, 'data-explorer-download-menu');
      await expectAxeClean(page, `download menu (${vp.name})`);
      await page.keyboard.press('Escape');
      await page.context().close();
    });
  }

  it('keeps the last searches across a reload, de-duplicated, newest first', async () => {
    const page = await open(1440, 900);
    const search = page.getByRole('searchbox', { name: 'Search datasets' });
    for (const q of ['gdp', 'wages', 'gdp']) {
      await search.fill(q);
      // Recorded once the text has settled (1.2 s).
      await page.getByRole('button', { name: `Search again for ${q}` }).waitFor();
      await page.waitForFunction(
        (first) =>
          document
            .querySelector('section[aria-label="Recent searches"] [role="button"]')
            ?.getAttribute('aria-label') === `Search again for ${first}`,
        q,
      );
    }
    await page.reload();
    await pageReady(page);
    const recent = page.getByRole('region', { name: 'Recent searches' });
    await recent.getByRole('button', { name: 'Search again for gdp' }).waitFor();
    const labels = await recent
      .locator('[role="button"][aria-label^="Search again"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(labels).toEqual(['Search again for gdp', 'Search again for wages']);
    await recent.getByRole('button', { name: 'Search again for wages' }).click();
    expect(await page.getByRole('searchbox', { name: 'Search datasets' }).inputValue()).toBe(
      'wages',
    );
    await page.context().close();
  });

  for (const vp of VIEWPORTS) {
    it(`lists sources without a connector as not connected (${vp.name})`, async () => {
      const page = await open(vp.width, vp.height);
      await page.getByRole('combobox', { name: 'Source' }).click();
      const listbox = page.getByRole('listbox');
      await listbox.waitFor();
      for (const name of ['World Bank', 'FRED', 'IMF', 'Custom']) {
        const option = listbox.getByRole('option', { name, exact: true });
        expect(await option.getAttribute('aria-disabled'), name).not.toBe('true');
      }
      for (const name of ['EconLit', 'RePEc', 'SSRN', 'NBER', 'BLS', 'Census']) {
        const option = listbox.getByRole('option', { name: `${name}: not connected` });
        expect(await option.getAttribute('aria-disabled'), name).toBe('true');
      }
      await listbox.getByText('Not connected', { exact: true }).waitFor();
      await screenshot(page, 'data-explorer-sources');
      await page.keyboard.press('Escape');
      await page.context().close();
    });
  }
});
