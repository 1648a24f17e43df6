import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { expectAxeClean, newAccount, openPage, screenshot, signIn, VIEWPORTS } from './support';

/**
 * Panel data in the Data Explorer, at phone and desktop width: a file in the World Bank's WDI
 * layout (BOM, quoted names, one column per year, a trailing comma) uploaded, reshaped from
 * wide to long on the Reshape tab, and charted one line per country: the year axis reads 1990
 * (no thousands separator), the legend names the twelve countries with the most values and the
 * note says 12 of 14 are shown, the log scale changes the value axis, and the chart downloads as
 * PNG and SVG files.
 */

const USER = {
  email: 'pia.panel@e2e.example',
  password: 'pia-password-1',
  displayName: 'Pia Panel',
};

const YEARS = Array.from({ length: 31 }, (_, i) => 1990 + i);
const FULL = [
  'Argentina',
  'Brazil',
  'Chile',
  'Denmark',
  'Egypt',
  'France',
  'Ghana',
  'India',
  'Japan',
  'Kenya',
  'Mexico',
  'Norway',
];
/** Two more countries with only three values each: never among the twelve drawn. */
const SPARSE = ['Atlantis', 'Lemuria'];

function wdiFile(): Buffer {
  const q = (s: string) => `"${s}"`;
  const header = [
    'Country Name',
    'Country Code',
    'Indicator Name',
    'Indicator Code',
    ...YEARS.map(String),
  ];
  const lines = [`${header.map(q).join(',')},`];
  [...FULL, ...SPARSE].forEach((name, c) => {
    const cells = YEARS.map((y, i) =>
      SPARSE.includes(name) && i > 2 ? '' : String(Math.round(1000 * (c + 1) * 1.05 ** (y - 1990))),
    );
    lines.push(
      `${[name, name.slice(0, 3).toUpperCase(), 'GDP per capita (current US$)', 'NY.GDP.PCAP.CD'].map(q).join(',')},${cells.map(q).join(',')},`,
    );
  });
  return Buffer.from(`\uFEFF${lines.join('\n')}\n`);
}

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await newAccount(server, USER);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
}

async function pickMany(page: Page, label: string, options: string[]) {
  await page.getByLabel(label, { exact: true }).click();
  for (const o of options) await page.getByRole('option', { name: o, exact: true }).click();
  await page.keyboard.press('Escape');
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
}

const texts = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => e.textContent ?? ''));

describe('Data Explorer with panel data', () => {
  for (const vp of VIEWPORTS) {
    it(`reshapes a WDI-style file to long and charts one line per country (${vp.name})`, async () => {
      const session = await signIn(server, USER.email, USER.password);
      const page = await openPage(browser, server, session, '/app/data-explorer', vp);
      const wideName = `WDI GDP per capita ${vp.name}`;
      const longName = `WDI long ${vp.name}`;

      // Upload the wide file.
      await page.getByRole('button', { name: 'Add dataset' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add dataset' });
      await dialog.getByRole('button', { name: 'Upload a file' }).click();
      await dialog
        .locator('input[type=file]')
        .setInputFiles({ name: 'API_NY.GDP.PCAP.CD.csv', mimeType: 'text/csv', buffer: wdiFile() });
      await dialog.getByLabel('Name (optional)').fill(wideName);
      await dialog.getByRole('button', { name: 'Add dataset' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 60_000 });

      // Reshape: wide to long on the four id columns; the 31 year columns found by their names.
      await page.getByRole('tab', { name: 'Reshape' }).click();
      await pick(page, 'Dataset', new RegExp(`^${wideName}`));
      await pickMany(page, 'Id columns', [
        'Country Name',
        'Country Code',
        'Indicator Name',
        'Indicator Code',
      ]);
      await page.getByText('Empty: the 31 columns named by a year (1990 … 2020)').waitFor();
      await page.getByLabel('Name of the new dataset').fill(longName);
      await expectAxeClean(page, `reshape tab (${vp.name})`);
      await page.getByRole('button', { name: 'Reshape and save' }).click();
      await page
        .getByText(`Saved “${longName}” in the catalog (434 rows, 6 columns).`)
        .waitFor({ timeout: 60_000 });
      await page
        .getByText('The column year holds the year of each value column, as a whole number.')
        .waitFor();
      await page.getByText('56 empty cells are kept as missing values.').waitFor();
      await screenshot(page, 'data-explorer-reshape');

      // Chart: one line per country, years as years.
      await page.getByRole('tab', { name: 'Data Visualization' }).click();
      await pick(page, 'Dataset', new RegExp(`^${longName}`));
      await pick(page, 'X axis (time or order)', 'year');
      await pick(page, 'One line per', 'Country Name');
      await pick(page, 'Y axis', 'value');
      await page.getByRole('button', { name: 'Draw chart' }).click();
      const figure = page.getByRole('figure', { name: 'value by year, one line per Country Name' });
      await figure.locator('.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel').first().waitFor();

      const xTicks = await texts(page, '.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel');
      expect(xTicks.length).toBeGreaterThan(1);
      for (const t of xTicks) expect(t).toMatch(/^(19|20)\d\d$/);
      expect(await texts(page, '.MuiChartsLegend-label')).toEqual(FULL);
      await figure.getByText('Showing 12 of 14 values of Country Name.').waitFor();

      // Log scale: the value axis changes to powers of ten.
      const linear = await texts(page, '.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel');
      await page.getByLabel('Log scale').check();
      await page.waitForFunction(
        (before) =>
          [...document.querySelectorAll('.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel')]
            .map((e) => e.textContent)
            .join('|') !== before,
        linear.join('|'),
      );
      const log = await texts(page, '.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel');
      expect(log).not.toEqual(linear);
      expect(log.some((t) => /^1(0|,0)*$|^1e\+?\d$|^1[0,]*k?$/.test(t))).toBe(true);
      await expectAxeClean(page, `panel chart (${vp.name})`);
      await screenshot(page, 'data-explorer-panel-chart');

      // Downloads: a PNG and an SVG of what is drawn.
      const [png] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download chart as PNG' }).click(),
      ]);
      expect(png.suggestedFilename()).toBe('value-by-year-one-line-per-country-name.png');
      const pngBytes = readFileSync((await png.path())!);
      expect(pngBytes.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      expect(pngBytes.length).toBeGreaterThan(5000);

      const [svg] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download chart as SVG' }).click(),
      ]);
      expect(svg.suggestedFilename()).toBe('value-by-year-one-line-per-country-name.svg');
      const svgText = readFileSync((await svg.path())!, 'utf8');
      expect(svgText).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svgText).toContain('value by year, one line per Country Name');
      for (const c of FULL) expect(svgText).toContain(`>${c}</text>`);
      expect(svgText).toContain(`>${xTicks[0]}</`);
      expect(svgText).not.toMatch(/>(19|20)\d,\d\d\d</);

      // A second measure on a right axis: two columns of the wide file, by country.
      await pick(page, 'Dataset', new RegExp(`^${wideName}`));
      await pick(page, 'X axis (time or order)', 'Country Code');
      await pickMany(page, 'Numeric columns', ['1990', '2020']);
      await page.getByRole('button', { name: 'Draw chart' }).click();
      const measures = page.getByRole('figure', { name: '1990, 2020 by Country Code' });
      await measures.locator('.MuiChartsAxis-directionY').first().waitFor();
      expect(await measures.locator('.MuiChartsAxis-directionY').count()).toBe(1);
      await pick(page, 'Right axis', '2020');
      await page.waitForFunction(
        () => document.querySelectorAll('.MuiChartsAxis-directionY').length === 2,
      );
      expect(await texts(page, '.MuiChartsAxis-directionY .MuiChartsAxis-label')).toEqual([
        '1990',
        '2020',
      ]);
      await screenshot(page, 'data-explorer-right-axis');
      await page.context().close();
    });
  }
});
