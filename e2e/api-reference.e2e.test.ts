import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';

/**
 * The API reference explorer (/docs/api) in Chromium, under the server's real
 * Content-Security-Policy: it loads, lists the API's operations, and nothing is refused.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('API reference', () => {
  it('is linked from the footer and shows the operations of the API without console errors', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    try {
      // Reached from the public pages' footer.
      await page.goto(server.baseUrl);
      await page.getByRole('contentinfo').getByRole('link', { name: 'API reference' }).click();
      await page.waitForURL(/\/docs\/api\/?$/);
      await page
        .getByRole('heading', { name: /EconAgents API/ })
        .first()
        .waitFor();
      await page.locator('.opblock').first().waitFor();
      expect(await page.locator('.opblock').count()).toBeGreaterThan(40);
      // Opening an operation shows the parameters from the route's own schema.
      const projects = page
        .locator('.opblock-get')
        .filter({ has: page.locator('.opblock-summary-path[data-path="/api/projects"]') });
      await projects.locator('.opblock-summary').click();
      await projects.locator('.parameter__name', { hasText: 'researchArea' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
