import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  apiOk,
  DESKTOP,
  expectAxeClean,
  newAccount,
  openPage,
  PHONE,
  screenshot,
  signInAsAdmin,
  type Session,
} from './support';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import {
  startIdeationOpenAlexFixture,
  type IdeationOpenAlexFixture,
} from '../test/fixtures/ideation-openalex/server';

/**
 * What the model cost, in Chromium against the real server: an Ideation run on the scripted
 * model (four calls of known size) shows its calls, tokens and an unknown cost on the team
 * screen; a price set in Settings > Usage & Cost turns it into dollars there and in the usage
 * tables; the admin area shows the server's totals. At 390 and 1440 px.
 */

let server: RunningServer;
let browser: Browser;
let llm: ScriptedLlmServer;
let openalex: IdeationOpenAlexFixture;
let researcher: Session;
let sessionId: string;

// The Ideation screen's own e2e run (e2e/ideation-team.e2e.test.ts), on the same OpenAlex fixture.
const QUESTIONS = [
  {
    question: 'Do payments for ecosystem services raise biodiversity conservation on farms?',
    searchQuery: 'payments biodiversity conservation',
  },
  {
    question: 'How do governance indicators predict development outcomes?',
    searchQuery: 'governance indicators',
  },
  {
    question: 'Did higher global food prices raise poverty in low-income countries?',
    searchQuery: 'food prices poverty',
  },
];
// Every call reports 1,000 input and 200 output tokens: 4 calls, 4,000 in and 800 out.
const usage = { promptTokens: 1000, completionTokens: 200 };

function scriptRun() {
  llm.scriptPhase('ideation', 'ideate', {
    json: {
      candidates: [
        'Payments for ecosystem services and conservation',
        'Governance and development',
        'Food prices and poverty',
      ],
    },
    usage,
  });
  llm.scriptPhase('ideation', 'refine', { json: { questions: QUESTIONS }, usage });
  llm.scriptPhase('ideation', 'contextualize', {
    json: {
      questions: QUESTIONS.map((_, i) => ({
        id: `Q${i + 1}`,
        theory: ['contract theory', 'institutional economics', 'consumer welfare'][i]!,
        context: 'The retrieved works study this directly [W1].',
        citedWorks: ['W1'],
      })),
    },
    usage,
  });
  llm.scriptPhase('ideation', 'finalize', {
    json: {
      ranking: [
        { id: 'Q3', justification: 'Prices keep moving and few works match it.' },
        { id: 'Q1', justification: 'Payment design is still open [W2].' },
        { id: 'Q2', justification: 'Governance data are rich.' },
      ],
    },
    usage,
  });
}

const usageLine = (page: Page) => page.getByTestId('session-usage');

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  openalex = await startIdeationOpenAlexFixture();
  server = await startServer({
    env: {
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-model',
      OPENALEX_BASE_URL: openalex.baseUrl,
      OPENALEX_CACHE_SECONDS: '0',
    },
  });
  browser = await launchBrowser();
  researcher = (await newAccount(server, { displayName: 'Una Usage' })).session;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
  await openalex?.close();
});

describe('model usage and cost', () => {
  it("a team session's screen shows its calls, tokens and an unknown cost after a run (1440 px)", async () => {
    llm.reset();
    scriptRun();
    const page = await openPage(browser, server, researcher, '/app/ideation-team', DESKTOP);
    await page.getByRole('button', { name: 'Start Workflow' }).click();
    await page
      .getByRole('textbox', { name: 'Your research idea' })
      .fill('Conservation payments, governance and food prices in poor countries');
    await page.getByRole('button', { name: 'Generate Research Questions' }).click();
    await page.getByText('All four agents have finished.').waitFor({ timeout: 60_000 });
    sessionId = new URL(page.url()).searchParams.get('sessionId') ?? '';
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    await usageLine(page)
      .getByText(/4 model calls · 4,800 tokens \(4,000 in, 800 out\)/)
      .waitFor({ timeout: 15_000 });
    const text = await usageLine(page).innerText();
    expect(text).toContain('estimated cost unknown');
    expect(text).toContain('No price for scripted-model');
    expect(
      await usageLine(page).getByRole('link', { name: 'Set a price in Settings' }).count(),
    ).toBe(1);
    await expectAxeClean(page, 'session usage');
    await screenshot(page, 'usage-session-unknown');
    await page.context().close();
  });

  for (const size of [DESKTOP, PHONE]) {
    it(`Settings > Usage & Cost: a price set there turns the cost into dollars (${size.width} px)`, async () => {
      // Start each width from the defaults.
      await apiOk(server, 'PUT', '/api/settings/model-prices', {
        token: researcher.tokens.accessToken,
        body: { prices: [] },
      });
      const page = await openPage(browser, server, researcher, '/app/settings?section=usage', size);
      const section = page.getByTestId('settings-usage');
      await section.getByRole('heading', { name: 'Usage & Cost' }).waitFor();
      const month = section.getByRole('table', { name: 'By month (UTC)' });
      await month.getByRole('row').nth(1).waitFor();
      const monthRow = await month.getByRole('row').nth(1).innerText();
      expect(monthRow).toMatch(/\b4\b/);
      expect(monthRow).toContain('unknown');
      const team = await section.getByRole('table', { name: 'By team' }).innerText();
      expect(team).toMatch(/Ideation/);

      // The unpriced model is listed with "Set price", which fills the form.
      const prices = section.getByRole('table', { name: /Model prices/ });
      const row = prices.getByRole('row', { name: /scripted-model/ });
      await row.getByRole('button', { name: 'Set price' }).click();
      expect(await section.getByRole('combobox', { name: 'Model id' }).inputValue()).toBe(
        'scripted-model',
      );
      await section.getByRole('spinbutton', { name: 'Input $ per million' }).fill('2');
      await section.getByRole('spinbutton', { name: 'Output $ per million' }).fill('10');
      await section.getByRole('button', { name: 'Save price' }).click();
      await section.getByText('Price for scripted-model saved').waitFor();
      // 4,000 tokens at $2/M and 800 at $10/M: $0.016.
      await month.getByText('$0.02').waitFor();
      expect(await section.getByText(/estimated cost\s+\$0\.02/).count()).toBeGreaterThan(0);
      await prices
        .getByRole('row', { name: /scripted-model/ })
        .getByText('yours')
        .waitFor();
      await expectAxeClean(page, `settings usage ${size.width}`);
      await screenshot(page, 'usage-settings');
      // Prices are saved on their own: no Save settings bar under this section.
      expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);

      // The session's screen shows the same price.
      await page.goto(`${server.baseUrl}/app/ideation-team?sessionId=${sessionId}`);
      await usageLine(page)
        .getByText(/estimated cost \$0\.02/)
        .waitFor({ timeout: 15_000 });
      expect(await usageLine(page).getByText('No price for').count()).toBe(0);
      await usageLine(page).scrollIntoViewIfNeeded();
      await screenshot(page, 'usage-session-priced', { fullPage: false });
      await page.context().close();
    });
  }

  it("the admin area shows the server's totals; a researcher's call to them is refused", async () => {
    const refused = await fetch(`${server.baseUrl}/api/admin/usage`, {
      headers: { authorization: `Bearer ${researcher.tokens.accessToken}` },
    });
    expect(refused.status).toBe(403);

    const admin = await signInAsAdmin(server);
    for (const size of [DESKTOP, PHONE]) {
      const page = await openPage(browser, server, admin, '/admin', size);
      const section = page.getByTestId('admin-usage');
      await section.getByText(/4 model calls by 1 user, 4,800 tokens/).waitFor();
      // The server has no price for scripted-model (a user's own price is theirs).
      expect(await section.getByText(/estimated cost\s+unknown/).count()).toBeGreaterThan(0);
      await section.getByRole('table', { name: 'By key' }).getByText("The server's").waitFor();
      await screenshot(page, 'usage-admin');
      await page.context().close();
    }
  });
});
