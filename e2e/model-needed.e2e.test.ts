import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { expectAxeClean, newAccount, openPage, screenshot, signIn, VIEWPORTS } from './support';

/**
 * A server with no language model, as a new install starts (issue 25, item 4): the dashboard's
 * team cards say 'needs a model' for the teams whose steps call one, with a link to Settings,
 * while a team that only computes stays 'ready'; the Settings model dropdown offers only the
 * chosen provider's models and says what is missing; no setting describes an effect the server
 * does not have. At phone and desktop width.
 */

const USER = { email: 'nora.nomodel@e2e.example', password: 'nora-password-1' };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await newAccount(server, { ...USER, displayName: 'Nora No-Model' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A fresh sign-in per page (each page rotates its refresh token). */
async function open(path: string, vp: { width: number; height: number }): Promise<Page> {
  return openPage(browser, server, await signIn(server, USER.email, USER.password), path, vp);
}

describe('without a model', () => {
  it("team cards say 'needs a model' and lead to Settings; computed-only teams stay ready", async () => {
    for (const vp of VIEWPORTS) {
      const page = await open('/app', vp);
      const launcher = page.getByRole('region', { name: 'AI Research Teams' });
      const card = (name: string) => launcher.getByRole('link', { name: new RegExp(`^${name}`) });
      await card('Ideation').getByText('needs a model').waitFor();
      for (const name of ['Ideation', 'Literature Review', 'Code']) {
        const text = (await card(name).textContent()) ?? '';
        expect(text, name).toContain('needs a model');
        expect(text, name).not.toMatch(/\bready\b/);
      }
      // The Data and Model teams compute without a model.
      for (const name of ['Data', 'Model']) {
        expect(await card(name).textContent(), name).toContain('ready');
      }
      // The rest of the dashboard has loaded (no skeleton left) before the page is checked.
      await page.locator('.MuiSkeleton-root').first().waitFor({ state: 'detached' });
      await expectAxeClean(page, `launcher without a model (${vp.name})`);
      await screenshot(page, 'launcher-needs-a-model');
      const settingsLinks = launcher.getByRole('link', { name: 'Set up a model in Settings' });
      expect(await settingsLinks.count()).toBe(3);
      await settingsLinks.first().click();
      await page.waitForURL(/\/app\/settings\?section=api-keys$/);
      await page.getByRole('heading', { level: 2, name: 'API Keys' }).waitFor();
      await page.context().close();
    }
  });

  it("the model dropdown offers the provider's models only and no switch claims a missing effect", async () => {
    for (const vp of VIEWPORTS) {
      const page = await open('/app/settings?section=ai', vp);
      await page.getByRole('heading', { level: 2, name: 'AI & Agents' }).waitFor();
      for (const gone of ['Agent autonomy', 'Save agent history', 'Continuous learning']) {
        expect(await page.getByText(gone).count(), gone).toBe(0);
      }
      await page.getByRole('combobox', { name: 'Model', exact: true }).click();
      const listbox = page.getByRole('listbox');
      await listbox.waitFor();
      const options = await listbox.getByRole('option').allTextContents();
      // OpenAI is the provider chosen by default: its model names, never claude-3.
      expect(options.map((o) => o.replace(/Add an API key.*|Any model.*/, ''))).toEqual([
        'gpt-4',
        'gpt-3.5-turbo',
        'Custom model',
      ]);
      expect(options.every((o) => o.includes('Add an API key under API Keys'))).toBe(true);
      await screenshot(page, 'settings-model-dropdown-no-model');
      await page.keyboard.press('Escape');
      await listbox.waitFor({ state: 'detached' });

      await page.goto(`${server.baseUrl}/app/settings?section=data`);
      await page.getByRole('heading', { level: 2, name: 'Data Settings' }).waitFor();
      expect(await page.getByText('Cache datasets').count()).toBe(0);
      expect(await page.getByText(/Max cache size/).count()).toBe(0);
      await page.getByText(/keeps replies from the World Bank, IMF, FRED and Kaggle/).waitFor();
      await page.goto(`${server.baseUrl}/app/settings?section=interface`);
      await page.getByRole('heading', { level: 2, name: 'User Interface' }).waitFor();
      expect(await page.getByText('Save data automatically').count()).toBe(0);
      await page.context().close();
    }
  });
});
