import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Settings } from '../common/settings';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
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
  type Session,
} from './support';

/**
 * Settings (platform.md §2, §5) against the real server: edits in several categories are saved
 * with PUT /api/settings and are still there after a reload; the confirmation shows only after
 * the server saved (and for about 3 s); a failed save says so; API keys stay masked; the theme
 * switches at once; password change and "sign out other sessions" work; every category is
 * axe-clean at phone and desktop width. The model status names the provider and exact model a
 * session would use, and "Test connection" shows the scripted model server's 401 as the provider
 * wrote it; leaving the page with unsaved changes asks first.
 */

const SAVED = 'Settings have been saved successfully!';
const USER = {
  email: 'sam.settings@e2e.example',
  password: 'sam-password-1',
  displayName: 'Sam Settings',
};
const LLM_KEY = 'sk-e2e-secret-key-4821';
const KAGGLE_KEY = 'kaggle-e2e-secret-0123456789';

let server: RunningServer;
let llm: ScriptedLlmServer;
let browser: Browser;
let sam: Session;
/** Changes when the password test changes it. */
let password = USER.password;

/**
 * A fresh sign-in per page: pages rotate their refresh token, and a rotated token used again
 * (by the next page) would revoke the whole family.
 */
async function freshSession(): Promise<Session> {
  sam = await signIn(server, USER.email, password);
  return sam;
}

async function stored(): Promise<Settings> {
  const r = await api<{ data: { settings: Settings } }>(server, 'GET', '/api/settings', {
    token: sam.tokens.accessToken,
  });
  expect(r.status).toBe(200);
  return r.body.data.settings;
}

async function open(path = '/app/settings', width = 1440, height = 900): Promise<Page> {
  return openPage(browser, server, await freshSession(), path, { width, height });
}

async function category(page: Page, name: string) {
  const nav = page.getByRole('navigation', { name: 'Settings categories' });
  // The list of categories from md (900 px) up; a select below.
  if ((page.viewportSize()?.width ?? 0) >= 900) await nav.getByRole('button', { name }).click();
  else {
    await page.getByRole('combobox', { name: 'Settings category' }).click();
    await page.getByRole('option', { name }).click();
  }
  await page.getByRole('heading', { level: 2, name }).waitFor();
  // Let a closing menu finish fading before anything looks at the page.
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
}

beforeAll(async () => {
  // The server's model is the scripted model server (test/llm-server) in this process.
  llm = await startScriptedLlmServer();
  server = await startServer({
    env: {
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      OPENAI_COMPATIBLE_API_KEY: 'e2e-server-key-0123',
      LLM_MODEL: 'scripted-model',
    },
  });
  browser = await launchBrowser();
  ({ session: sam } = await newAccount(server, USER));
  password = USER.password;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
});

describe('Settings', () => {
  it('saves edits from several categories on the server and shows them after a reload', async () => {
    const page = await open();
    await page.getByLabel('Display name').fill('Sam Settings-Smith');

    await category(page, 'API Keys');
    expect(await page.getByTestId('api-key-masked').first().textContent()).toBe('Not set');
    await page.getByRole('button', { name: 'Set key for Language-model API key' }).click();
    await page.getByLabel('New Language-model API key').fill(LLM_KEY);
    await page.getByLabel('Kaggle username').fill('sam-smith');
    await page.getByRole('button', { name: 'Set key for Kaggle API key' }).click();
    await page.getByLabel('New Kaggle API key').fill(KAGGLE_KEY);

    await category(page, 'AI & Agents');
    const temperature = page.getByRole('slider', { name: /Temperature/ });
    expect(await temperature.getAttribute('aria-valuenow')).toBe('0.7');
    await temperature.focus();
    await page.keyboard.press('ArrowRight');
    expect(await temperature.getAttribute('aria-valuenow')).toBe('0.8');
    await page.getByLabel('Max tokens per response').fill('3000');

    await category(page, 'Data Settings');
    await choose(page, 'Missing-value imputation', 'Median');

    await category(page, 'Code Generation');
    await choose(page, 'Default language', 'Julia');
    await category(page, 'Terminal & Runtime');
    await page.getByLabel('Code execution time limit (seconds)').fill('120');
    await category(page, 'Notifications');
    await page.getByRole('switch', { name: 'A session failed' }).click();

    // The confirmation appears only after the PUT was answered.
    const put = page.waitForResponse(
      (r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect((await put).status()).toBe(200);
    const notice = page.getByTestId('settings-saved');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(SAVED);
    const shownAt = Date.now();
    await notice.waitFor({ state: 'detached', timeout: 6000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(2000);
    expect(shownFor).toBeLessThan(4500);

    const s = await stored();
    expect(s.profile.displayName).toBe('Sam Settings-Smith');
    expect(s.ai).toMatchObject({ temperature: 0.8, maxTokens: 3000 });
    expect(s.data).toMatchObject({ imputationStrategy: 'median' });
    expect(s.codeGeneration.defaultLanguage).toBe('julia');
    expect(s.runtime.codeExecutionTimeLimitSeconds).toBe(120);
    expect(s.notifications.sessionFailed).toBe(false);
    expect(s.apiKeys.llmApiKey.hasKey).toBe(true);
    expect(JSON.stringify(s)).not.toContain(LLM_KEY);
    expect(s.apiKeys.kaggleUsername).toBe('sam-smith');
    expect(s.apiKeys.kaggleApiKey).toEqual({ hasKey: true, masked: '••••••••6789' });
    expect(JSON.stringify(s)).not.toContain(KAGGLE_KEY);

    // After a reload the form shows what the server holds; the key only masked.
    await page.reload();
    await pageReady(page);
    await category(page, 'User Profile');
    expect(await page.getByLabel('Display name').inputValue()).toBe('Sam Settings-Smith');
    await category(page, 'API Keys');
    const masked = (await page.getByTestId('api-key-masked').first().textContent()) ?? '';
    expect(masked).toBe(s.apiKeys.llmApiKey.masked);
    expect(masked).not.toContain(LLM_KEY);
    expect(await page.content()).not.toContain(LLM_KEY);
    expect(await page.getByLabel('Kaggle username').inputValue()).toBe('sam-smith');
    expect(await page.content()).not.toContain(KAGGLE_KEY);
    await category(page, 'AI & Agents');
    expect(
      await page.getByRole('slider', { name: /Temperature/ }).getAttribute('aria-valuenow'),
    ).toBe('0.8');
    expect(await page.getByLabel('Max tokens per response').inputValue()).toBe('3000');
    await category(page, 'Data Settings');
    expect(
      await page.getByRole('combobox', { name: 'Missing-value imputation' }).textContent(),
    ).toBe('Median');

    // Clearing the key: stored as gone after Save.
    await category(page, 'API Keys');
    await page.getByRole('button', { name: 'Clear Language-model API key' }).click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('settings-saved').waitFor();
    expect((await stored()).apiKeys.llmApiKey.hasKey).toBe(false);
    await page.context().close();
  });

  it('says when a save failed, and checks fields before sending', async () => {
    const page = await open('/app/settings?section=ai');
    let puts = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/settings') && r.method() === 'PUT') puts++;
    });
    await page.getByLabel('Max tokens per response').fill('50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Please correct the highlighted field before saving.').waitFor();
    await page.getByText('Max tokens must be between 100 and 32000').waitFor();
    expect(puts).toBe(0);
    await page.getByLabel('Max tokens per response').fill('4000');

    // The server fails: an error, and no success message.
    await page.route('**/api/settings', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error: 'Unavailable', message: 'Database is down' }),
      });
    });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Your settings were not saved: Database is down').waitFor();
    expect(await page.getByTestId('settings-saved').count()).toBe(0);
    expect((await stored()).ai.maxTokens).toBe(3000);
    await page.context().close();
  });

  it('switches the theme at once and keeps the saved one', async () => {
    const page = await open('/app/settings?section=interface');
    const htmlClass = () => page.evaluate(() => document.documentElement.className);
    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.getByRole('radio', { name: 'Light' }).check();
    await page.waitForFunction(() => document.documentElement.classList.contains('light'));
    const lightBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(darkBg).not.toBe(lightBg);

    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('settings-saved').waitFor();
    expect((await stored()).profile.theme).toBe('dark');
    await screenshot(page, 'settings-dark');
    await expectAxeClean(page, 'settings in dark mode');

    // A fresh browser (no local choice) gets the account's saved theme.
    const fresh = await open('/app');
    await fresh.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await fresh.context().close();
    expect(await htmlClass()).toContain('dark');
    await page.getByRole('radio', { name: 'System' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('settings-saved').waitFor();
    expect((await stored()).profile.theme).toBe('system');
    await page.context().close();
  });

  it('changes the password and signs out the other sessions', async () => {
    const other = await signIn(server, USER.email, USER.password);
    const page = await open('/app/settings?section=security');
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('sam-new-password-2');
    await page.getByLabel('Confirm new password').fill('sam-new-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    expect(await page.getByRole('alert').first().getAttribute('class')).toContain('Error');

    // Mismatch is caught before sending.
    await page.getByLabel('Current password').fill(USER.password);
    await page.getByLabel('Confirm new password').fill('something-else-9');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The new passwords do not match').waitFor();

    await page.getByLabel('Confirm new password').fill('sam-new-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/^Password changed\./).waitFor();
    password = 'sam-new-password-2';
    // The new password signs in; the other session was signed out by the change.
    await signIn(server, USER.email, 'sam-new-password-2');
    const refreshed = await api(server, 'POST', '/api/auth/refresh', {
      body: { refreshToken: other.tokens.refreshToken },
    });
    expect(refreshed.status).toBe(401);

    // Sign out everywhere else: a new second session ends, this browser stays signed in.
    const second = await signIn(server, USER.email, 'sam-new-password-2');
    await page.getByRole('button', { name: 'Sign out of all other sessions' }).click();
    await page
      .getByRole('dialog', { name: 'Sign out other sessions' })
      .getByRole('button', { name: 'Sign out others' })
      .click();
    await page.getByText(/^Signed out of \d+ other session/).waitFor();
    const again = await api(server, 'POST', '/api/auth/refresh', {
      body: { refreshToken: second.tokens.refreshToken },
    });
    expect(again.status).toBe(401);
    await page.reload();
    await pageReady(page);
    await page.getByRole('heading', { level: 2, name: 'Security' }).waitFor();
    await page.context().close();
  });

  it('is axe-clean in every category at phone and desktop width', async () => {
    for (const vp of VIEWPORTS) {
      const page = await open('/app/settings', vp.width, vp.height);
      for (const name of [
        'User Profile',
        'API Keys',
        'User Interface',
        'AI & Agents',
        'Data Settings',
        'Code Generation',
        'Terminal & Runtime',
        'Notifications',
        'Security',
      ]) {
        await category(page, name);
        await expectAxeClean(page, `settings ${name} (${vp.name})`);
        if (['API Keys', 'AI & Agents', 'Security'].includes(name))
          await screenshot(page, `settings-${name.replace(/\W+/g, '-')}`);
      }
      await page.context().close();
    }
  });

  it('shows the model a session would use and what Test connection found', async () => {
    for (const vp of VIEWPORTS) {
      llm.reset();
      const page = await open('/app/settings?section=ai', vp.width, vp.height);
      const status = page.getByTestId('model-status');
      await status.getByText('OpenAI-compatible server').waitFor();
      expect(await page.getByTestId('model-status-model').textContent()).toBe('scripted-model');
      await status.getByText("The server's configuration (set by an administrator)").waitFor();
      // The picker says what each of the spec's choices runs.
      await page.getByText('Runs scripted-model on OpenAI-compatible server').waitFor();

      // The provider refuses the key: its own words, the status and whom to ask.
      llm.setOptions({ requireApiKey: 'not-the-server-key' });
      await status.getByRole('button', { name: 'Test connection' }).click();
      const result = page.getByTestId('connection-test-result');
      await result.getByText('Connection failed').waitFor();
      const text = (await result.textContent()) ?? '';
      expect(text).toContain('HTTP 401');
      expect(text).toContain('Incorrect API key provided');
      expect(text).toContain('An administrator needs to check the API key');
      expect(text).not.toContain('e2e-server-key');
      expect(llm.requests.filter((r) => r.phase === 'test-connection')).toHaveLength(1);
      await expectAxeClean(page, `settings model test failed (${vp.name})`);
      await screenshot(page, 'settings-model-test-401');

      // The same button on the API Keys page, now with a working key.
      llm.reset();
      llm.scriptPhase('settings', 'test-connection', { text: 'OK' });
      await category(page, 'API Keys');
      await page
        .getByTestId('model-status')
        .getByRole('button', { name: 'Test connection' })
        .click();
      await page
        .getByTestId('connection-test-result')
        .getByText(/^Connected: OpenAI-compatible server answered with scripted-model in \d+ ms\.$/)
        .waitFor();
      await page.context().close();
    }
  });

  it("offers the model server's own models for a custom model id", async () => {
    llm.reset();
    llm.setOptions({ models: ['qwen2.5:7b', 'llama3.1:8b'] });
    const page = await open('/app/settings?section=ai');
    // Each option is the model it runs: the server's one model once, then a custom id.
    await page.getByRole('combobox', { name: 'Model', exact: true }).click();
    await page
      .getByRole('option', { name: /^scripted-model\s*Runs on OpenAI-compatible server$/ })
      .waitFor();
    const options = await page.getByRole('option').allTextContents();
    expect(options).toHaveLength(2);
    expect(options.join(' ')).not.toMatch(/gpt|claude/);
    await page.getByRole('option', { name: /^Custom model/ }).click();
    await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
    await page.getByText('2 models on your server: pick one or type an id').waitFor();
    await page.getByRole('combobox', { name: 'Custom model id' }).click();
    await page.getByRole('option', { name: 'llama3.1:8b' }).click();
    // The status follows the unsaved choice, and says it is not saved yet.
    const status = page.getByTestId('model-status');
    await status.getByText('llama3.1:8b', { exact: true }).waitFor();
    await status.getByText(/includes your unsaved changes/).waitFor();
    await expectAxeClean(page, 'settings custom model');
    await screenshot(page, 'settings-model-custom');
    expect((await stored()).ai.modelVersion).not.toBe('custom');
    await page.context().close();
  });

  it('asks before dropping unsaved changes when leaving the page', async () => {
    for (const vp of VIEWPORTS) {
      const page = await open('/app/settings', vp.width, vp.height);
      await page.getByLabel('Display name').fill(`Unsaved ${vp.name}`);
      const goToProjects = async () => {
        if (vp.width < 900) {
          await page.getByRole('button', { name: 'Open navigation' }).click();
          await page
            .getByRole('dialog', { name: 'Navigation' })
            .getByRole('link', { name: 'Project Manager' })
            .click();
        } else {
          await page.getByRole('link', { name: 'Project Manager' }).first().click();
        }
      };
      const question = page.getByRole('dialog', { name: 'Leave without saving?' });

      // A link: asked; Stay keeps the page and the edit.
      await goToProjects();
      await question.waitFor();
      await expectAxeClean(page, `settings leave question (${vp.name})`);
      await screenshot(page, 'settings-leave-question');
      await question.getByRole('button', { name: 'Stay' }).click();
      await question.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/app/settings');
      expect(await page.getByLabel('Display name').inputValue()).toBe(`Unsaved ${vp.name}`);

      // The browser's Back button: asked too.
      await page.goBack();
      await question.waitFor();
      await question.getByRole('button', { name: 'Stay' }).click();
      await question.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/app/settings');
      expect(await page.getByLabel('Display name').inputValue()).toBe(`Unsaved ${vp.name}`);

      // Reload: the browser's own question (kept here by dismissing it).
      const beforeUnload = new Promise<string>((resolve) =>
        page.once('dialog', (d) => {
          resolve(d.type());
          void d.dismiss();
        }),
      );
      await page.reload({ timeout: 2_000 }).catch(() => undefined);
      expect(await beforeUnload).toBe('beforeunload');
      expect(await page.getByLabel('Display name').inputValue()).toBe(`Unsaved ${vp.name}`);

      // Leave: the other page, and nothing was saved.
      await goToProjects();
      await question.getByRole('button', { name: 'Leave without saving' }).click();
      await page.getByRole('heading', { level: 1, name: 'Project Manager' }).waitFor();
      expect((await stored()).profile.displayName).not.toBe(`Unsaved ${vp.name}`);
      await page.context().close();
    }
  });

  it('leaves without a question once the changes are saved or discarded', async () => {
    const page = await open('/app/settings?section=runtime');
    await page.getByLabel('Code execution time limit (seconds)').fill('90');
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('link', { name: 'Project Manager' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Project Manager' }).waitFor();
    // The extra history entry was taken away: Back returns to Settings in one step.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/version.json');
    await page.context().close();
  });
});
