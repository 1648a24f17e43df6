import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDataFixtures, type DataFixtures } from '../test/fixtures/data-sources/server';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { screenshot } from './support';
import { approvedUser, expectAxeClean, openPage, type Session } from './web-pages.helpers';

/**
 * The Data Team screen against the real server, with the World Bank answered by the fixture
 * server: the validation texts, a CSV upload from start to completed through the profile
 * checkpoint (with cleaning asked for there), the four tabs with real charts, the JSON download;
 * and a World Bank indicator to completion.
 */

const USER = {
  email: 'dora.data@e2e.example',
  password: 'dora-password-1',
  displayName: 'Dora Data',
};
const SAMPLES = path.resolve(import.meta.dirname, '../test/fixtures/data-sources/samples/datasets');
const MROZ = path.join(SAMPLES, 'wooldridge_mroz.csv');
const PWT = path.join(SAMPLES, 'pwt10_sample_21_countries.csv');

let server: RunningServer;
let fixtures: DataFixtures;
let browser: Browser;
let dora: Session;

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
  dora = await approvedUser(server, USER);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fixtures?.close();
});

async function open(): Promise<Page> {
  const page = await openPage(browser, server.baseUrl, dora, '/app/data-team');
  await page.getByRole('heading', { level: 1, name: 'Data Team' }).waitFor();
  return page;
}

const checkpointHeading = (page: Page) =>
  page.getByRole('heading', { name: 'Checkpoint: Data Profile Review' });

describe('Data Team screen', () => {
  it('asks for a file or a dataset id before it calls the server, and is axe-clean', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    await page.getByText('Please upload a data file first').waitFor();
    await page.getByLabel('Data source').click();
    await page.getByRole('option', { name: 'Public API' }).click();
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    await page.getByText('Please enter a dataset ID').waitFor();
    for (const name of ['Results', 'Data Profile', 'Visualizations', 'Console Logs']) {
      expect(await page.getByRole('tab', { name }).count()).toBe(1);
    }
    await expectAxeClean(page, 'data team screen');
    await page.context().close();
  });

  it('takes an uploaded CSV through the profile checkpoint, with cleaning, to a completed analysis', async () => {
    const page = await open();
    await page.getByLabel('Analysis type').click();
    await page.getByRole('option', { name: 'Descriptive Statistics' }).click();
    await page.locator('#data-file').setInputFiles(MROZ);
    await page.getByText('wooldridge_mroz.csv (97.7 KB)').waitFor();
    await page.getByRole('button', { name: 'Start Analysis' }).click();

    // The checkpoint: the profile tab opens, the cleaning defaults come from Settings.
    await checkpointHeading(page).waitFor({ timeout: 90_000 });
    await page.getByRole('tab', { name: 'Data Profile', selected: true }).waitFor();
    await page
      .getByRole('table', { name: 'Column statistics' })
      .getByRole('rowheader', { name: /^wage/ })
      .waitFor();
    await page.getByText('753', { exact: true }).first().waitFor();
    expect(await page.getByLabel('Missing values').textContent()).toContain('Mean');
    await expectAxeClean(page, 'data team checkpoint');
    await page.getByText('Read as missing when the file was loaded:').waitFor();
    await screenshot(page, 'data-team-profile-checkpoint');

    // Cleaning: median imputation; the phase runs again on a cleaned copy.
    await page.getByLabel('Missing values').click();
    await page.getByRole('option', { name: 'Median' }).click();
    await page.getByRole('button', { name: 'Clean the data' }).click();
    await page
      .getByText(/rows, 23 columns, 0\.0% of cells missing, .* \(after cleaning\)\./)
      .waitFor({ timeout: 90_000 });

    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    // The analysis's own message: the stepper's "Completed" label is on the page all along.
    await page
      .getByText(/Analysis completed on “wooldridge_mroz \(cleaned\)”/)
      .waitFor({ timeout: 90_000 });

    // Results: the computed summary; no model here, so no interpretation paragraph.
    await page.getByRole('heading', { name: 'Descriptive Statistics' }).waitFor();
    await page
      .getByRole('table', { name: 'Summary statistics' })
      .getByRole('rowheader', { name: 'hours' })
      .waitFor();
    await page.getByText(/No language model is configured/).waitFor();

    // Visualizations: cards with a title, a description and a drawn chart.
    await page.getByRole('tab', { name: 'Visualizations' }).click();
    const cards = page.getByRole('article');
    await cards.first().waitFor();
    expect(await cards.count()).toBeGreaterThanOrEqual(4);
    await page
      .getByRole('article', { name: 'Missing values by column' })
      .locator('svg')
      .first()
      .waitFor();
    await page
      .getByRole('article', { name: 'Correlation matrix (Pearson)' })
      .getByRole('table')
      .waitFor();

    await page.getByRole('tab', { name: 'Console Logs' }).click();
    await page.getByText('Registered "wooldridge_mroz" in the datasets catalog').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^data-analysis-\d{4}-\d{2}-\d{2}\.json$/);
    const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
      profile: { rowCount: number };
      cleaning: { rowsBefore: number; rowsAfter: number; spec: { imputation: string } };
      analysis: { type: string };
    };
    // The cleaned copy: median imputation and the Settings' z-score rule removed outlier rows.
    expect(saved.cleaning).toMatchObject({ rowsBefore: 753, spec: { imputation: 'median' } });
    expect(saved.profile.rowCount).toBe(saved.cleaning.rowsAfter);
    expect(saved.profile.rowCount).toBeLessThan(753);
    expect(saved.analysis.type).toBe('descriptive');
    await expectAxeClean(page, 'data team completed');
    await page.context().close();
  });

  it('fetches a World Bank indicator and charts it over time', async () => {
    const page = await open();
    await page.getByLabel('Data source').click();
    await page.getByRole('option', { name: 'Public API' }).click();
    await page.getByLabel('Analysis type').click();
    await page.getByRole('option', { name: 'Exploratory Analysis' }).click();
    await page.getByLabel('Dataset ID').fill('JPN/NY.GDP.MKTP.CD');
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    await checkpointHeading(page).waitFor({ timeout: 90_000 });
    await page.getByText(/Time index date: yearly, 1971 to 2020, 50 periods/).waitFor();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await page.getByRole('heading', { name: 'Exploratory Analysis' }).waitFor({ timeout: 90_000 });
    await page.getByRole('table', { name: 'Trends' }).getByText('rising').waitFor();
    await page.getByRole('tab', { name: 'Visualizations' }).click();
    await page.getByRole('article', { name: 'value over time' }).locator('svg').first().waitFor();
    await page.context().close();
  });
});

describe('Data team from a web address', () => {
  it('downloads a CSV file from a URL and takes it through the checkpoint to a completed profile', async () => {
    const page = await open();
    await page.getByLabel('Data source').click();
    await page.getByRole('option', { name: 'Web address (URL)' }).click();
    await page.getByLabel('Address of a CSV or JSON file').fill(`${fixtures.urls.files}/pwt.csv`);
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    await checkpointHeading(page).waitFor({ timeout: 90_000 });
    await page
      .getByText(/1,540 rows/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    // The analysis's own message, not the stepper's "Completed" label (always on the page): the
    // screen turns to the Results tab when the session completes, so the logs are opened after.
    await page.getByText(/Analysis completed on “pwt”/).waitFor({ timeout: 90_000 });
    await page.getByRole('tab', { name: 'Console Logs' }).click();
    await page.getByText(/^Downloaded pwt\.csv \(\d+ bytes\)$/).waitFor();
    await page.context().close();
  });
});

describe('Data team: missing-value tokens, the saved profile and a catalog dataset', () => {
  /** An R export: NA where a number is missing, "." and "-" as other tools write them. */
  const R_EXPORT = [
    '"country","year","gdp_usd","inflation"',
    '"A",2000,1.5,2.1',
    '"A",2001,NA,2.4',
    '"A",2002,2.5,.',
    '"B",2000,,1.9',
    '"B",2001,4,-',
    '"B",2002,5.5,2.2',
  ].join('\n');

  it('reads NA as missing, lists the tokens, saves the profile as a document, and analyses the stored dataset again from the catalog', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'r-export-'));
    const file = path.join(dir, 'r_export.csv');
    fs.writeFileSync(file, R_EXPORT);
    const page = await open();
    // The defaults are chosen: the empty cell, NA, N/A, NaN, null, "." and "-".
    await page.getByRole('combobox', { name: 'Read as missing' }).waitFor();
    await page.getByRole('button', { name: 'NA', exact: true }).waitFor();
    await page.locator('#data-file').setInputFiles(file);
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    await checkpointHeading(page).waitFor({ timeout: 90_000 });
    const tokens = page.getByRole('table', { name: 'Missing-value tokens found' });
    await tokens.getByRole('row', { name: /gdp_usd .*NA ×1/ }).waitFor();
    await tokens.getByRole('row', { name: /inflation .*\. ×1, - ×1/ }).waitFor();
    // gdp_usd stayed numeric: its mean is computed from 1.5, 2.5, 4 and 5.5.
    await page
      .getByRole('table', { name: 'Column statistics' })
      .getByRole('row', { name: /^gdp_usd/ })
      .getByText('3.375')
      .waitFor();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await page.getByText(/Analysis completed on “r_export”/).waitFor({ timeout: 90_000 });
    await page.getByRole('link', { name: 'open it in Documentation' }).click();
    await page.getByText('Data profile: r_export').first().waitFor();
    await page.getByText('Data dictionary').first().waitFor();

    // The same dataset, now stored, from the catalog: analysed in place.
    const again = await open();
    await again.getByLabel('Data source').click();
    await again.getByRole('option', { name: 'From the project / catalog' }).click();
    await again.getByRole('button', { name: 'Start Analysis' }).click();
    await again.getByText('Please choose a dataset from the project or the catalog').waitFor();
    await again.getByLabel('Dataset', { exact: true }).click();
    await again.getByRole('option', { name: 'r_export (6 rows)' }).click();
    await again.getByRole('button', { name: 'Start Analysis' }).click();
    await checkpointHeading(again).waitFor({ timeout: 90_000 });
    await again.getByRole('button', { name: 'Approve & Continue' }).click();
    await again.getByText(/Analysis completed on “r_export”/).waitFor({ timeout: 90_000 });
    await again.getByRole('tab', { name: 'Console Logs' }).click();
    await again.getByText(/^Reading "r_export" from the catalog: 6 rows and 4 columns/).waitFor();
    await expectAxeClean(again, 'data team from the catalog');
    await page.context().close();
    await again.context().close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('Data Explorer with the Data team', () => {
  async function explorer(tab?: string): Promise<Page> {
    const page = await openPage(
      browser,
      server.baseUrl,
      dora,
      `/app/data-explorer${tab ? `?tab=${tab}` : ''}`,
    );
    await page.getByRole('heading', { level: 1, name: 'Data Explorer' }).waitFor();
    return page;
  }
  async function pick(page: Page, label: string, option: string | RegExp) {
    await page.getByLabel(label, { exact: true }).click();
    await page.getByRole('option', { name: option }).click();
  }

  it('adds a dataset by upload, previews its rows, charts it and saves transformed and joined copies', async () => {
    const page = await explorer();
    await page.getByRole('button', { name: 'Add dataset' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add dataset' });
    await dialog.getByRole('button', { name: 'Upload a file' }).click();
    await dialog.locator('input[type=file]').setInputFiles(PWT);
    await dialog.getByLabel('Name (optional)').fill('Penn World Table sample');
    await expectAxeClean(page, 'add dataset by upload');
    await dialog.getByRole('button', { name: 'Add dataset' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    const card = page.getByRole('article', { name: 'Penn World Table sample' });
    await card.waitFor();
    expect(await card.textContent()).toContain('1,540');

    // The paged preview of the stored rows.
    await card.getByRole('button', { name: 'Preview rows of Penn World Table sample' }).click();
    const rows = page.getByRole('dialog', { name: 'Rows of Penn World Table sample' });
    await rows.getByText('1,540 rows, 13 columns').waitFor();
    await rows.getByRole('cell', { name: 'Australia' }).first().waitFor();
    await rows.getByRole('button', { name: 'Go to next page' }).click();
    await rows.getByRole('cell', { name: '26', exact: true }).first().waitFor();
    await expectAxeClean(page, 'rows preview');
    await rows.getByRole('button', { name: 'Close' }).click();

    // Data Visualization: a line chart of a real column.
    await page.getByRole('tab', { name: 'Data Visualization' }).click();
    await pick(page, 'Dataset', /^Penn World Table sample/);
    await pick(page, 'X axis (time or order)', 'year');
    await page.getByLabel('Numeric columns').click();
    await page.getByRole('option', { name: 'pop', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Draw chart' }).click();
    await page.getByRole('figure', { name: 'pop by year' }).locator('svg').first().waitFor();

    // Feature Engineering: growth rates within each country, saved as a new dataset.
    await page.getByRole('tab', { name: 'Feature Engineering' }).click();
    await pick(page, 'Dataset', /^Penn World Table sample/);
    await page.getByRole('button', { name: 'Add a transformation' }).click();
    await pick(page, 'Column', 'rgdpna');
    await pick(page, 'Transformation', 'percent change');
    await page.getByLabel("Series columns (a panel's entity, e.g. country)").click();
    await page.getByRole('option', { name: 'country', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('Name of the new dataset').fill('PWT with growth');
    await page.getByRole('button', { name: 'Transform and save' }).click();
    await page
      .getByText('Saved “PWT with growth” in the catalog (1,540 rows, 14 columns).')
      .waitFor({ timeout: 60_000 });
    await page.getByText(/lag and pct_change follow year within each country/).waitFor();

    // Data Integration: the two joined on country and year.
    await page.getByRole('tab', { name: 'Data Integration' }).click();
    await pick(page, 'First dataset', /^Penn World Table sample/);
    await pick(page, 'Second dataset', /^PWT with growth/);
    await pick(page, 'Key 1 in the first', 'isocode');
    await pick(page, 'Key 1 in the second', 'isocode');
    await page.getByRole('button', { name: 'Add a key' }).click();
    await pick(page, 'Key 2 in the first', 'year');
    await pick(page, 'Key 2 in the second', 'year');
    await page.getByLabel('Name of the new dataset').fill('PWT joined');
    await page.getByRole('button', { name: 'Combine and save' }).click();
    await page
      .getByText(/^Saved “PWT joined” in the catalog \(1,540 rows/)
      .waitFor({ timeout: 60_000 });
    await expectAxeClean(page, 'data integration saved');
    await page.context().close();
  });
});
