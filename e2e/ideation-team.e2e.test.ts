import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, settleAnimations, startServer, type RunningServer } from './harness';
import { approvedUser, call, expectAxeClean, openPage, type Session } from './web-pages.helpers';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import {
  sampleTopicCounts,
  startIdeationOpenAlexFixture,
  type IdeationOpenAlexFixture,
} from '../test/fixtures/ideation-openalex/server';
import { trendWindow } from '../server/agents/teams/ideation/trend-discovery';

/**
 * The Ideation screen in Chromium against the real server, the scripted model server and an
 * OpenAlex fixture: the workflow dropdown and placeholder, both modes with live agent panels,
 * ranked question cards with their grounding, 'Error: ...' on a failed run, Save to project,
 * and the disabled states; at 390 and 1440 px.
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/ideation-shots';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

let server: RunningServer;
let browser: Browser;
let llm: ScriptedLlmServer;
let openalex: IdeationOpenAlexFixture;
let session: Session;

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

function scriptRun(ideateDelayMs = 1200) {
  llm.scriptPhase('ideation', 'ideate', {
    json: {
      candidates: [
        'Payments for ecosystem services and conservation',
        'Governance and development',
        'Food prices and poverty',
      ],
    },
    delayMs: ideateDelayMs,
  });
  llm.scriptPhase('ideation', 'refine', { json: { questions: QUESTIONS }, delayMs: 600 });
  llm.scriptPhase('ideation', 'contextualize', {
    json: {
      questions: QUESTIONS.map((_, i) => ({
        id: `Q${i + 1}`,
        theory: ['contract theory', 'institutional economics', 'consumer welfare'][i]!,
        context: 'The retrieved works study this directly [W1].',
        citedWorks: ['W1'],
      })),
    },
    delayMs: 600,
  });
  llm.scriptPhase('ideation', 'finalize', {
    json: {
      ranking: [
        { id: 'Q3', justification: 'Prices keep moving and few works match it.' },
        { id: 'Q1', justification: 'Payment design is still open [W2].' },
        { id: 'Q2', justification: 'Governance data are rich.' },
      ],
    },
    delayMs: 600,
  });
}

async function shot(page: Page, name: string) {
  await settleAnimations(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const panel = (page: Page, agent: string) => page.getByRole('region', { name: `${agent} agent` });

async function panelStates(page: Page): Promise<string[]> {
  return page
    .locator('[data-agent]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-state') ?? ''));
}

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
  session = await approvedUser(server, {
    email: 'ideas@e2e.example',
    password: 'ideas-password-1',
    displayName: 'Ida Ideas',
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
  await openalex?.close();
});

describe('Ideation screen', () => {
  it('human mode: panels follow the agents, ranked grounded questions, Save to project', async () => {
    llm.reset();
    scriptRun();
    const project = await call<{ data: { project: { id: string } } }>(
      server.baseUrl,
      'POST',
      '/api/projects',
      {
        token: session.tokens.accessToken,
        body: { title: 'Conservation and food prices', researchArea: 'Development Economics' },
      },
    );
    expect(project.status).toBe(201);
    const projectId = project.body.data.project.id;

    const page = await openPage(browser, server.baseUrl, session, '/app/ideation-team', DESKTOP);
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.getByRole('heading', { name: 'Ideation Team', level: 1 }).waitFor();
    await page.getByText('Select a workflow and click "Start Workflow" to begin.').waitFor();
    await page.getByRole('complementary', { name: 'Fun fact' }).waitFor();

    // The dropdown: the real workflow and the disabled entry with its chip.
    await page.getByRole('combobox', { name: 'Workflow' }).click();
    const more = page.getByRole('option', { name: /More workflows in developing/ });
    await more.waitFor();
    expect(await more.getAttribute('aria-disabled')).toBe('true');
    expect(await more.getByText('coming soon').count()).toBe(1);
    await shot(page, 'ideation-dropdown-desktop');
    await page.keyboard.press('Escape');
    await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
    await expectAxeClean(page, 'before start');
    await shot(page, 'ideation-placeholder-desktop');

    await page.getByRole('button', { name: 'Start Workflow' }).click();
    const generate = page.getByRole('button', { name: 'Generate Research Questions' });
    expect(await generate.isDisabled()).toBe(true);
    const idea = page.getByRole('textbox', { name: 'Your research idea' });
    await idea.fill('    ');
    expect(await generate.isDisabled()).toBe(true);
    await idea.fill('Conservation payments, governance and food prices in poor countries');
    expect(await generate.isDisabled()).toBe(false);

    await generate.click();
    // Generating: the button is disabled and the Ideator's panel is active, the others pending.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-agent="Ideator"]')?.getAttribute('data-state') === 'active',
    );
    expect(await generate.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Automated Trend-Driven' }).isDisabled()).toBe(
      true,
    );
    expect((await panelStates(page)).slice(1)).toEqual(['pending', 'pending', 'pending']);
    await shot(page, 'ideation-generating-desktop');

    // A later panel becomes active while the earlier ones complete.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-agent="Ideator"]')?.getAttribute('data-state') ===
          'completed' &&
        document.querySelector('[data-agent="Finalizer"]')?.getAttribute('data-state') !==
          'completed',
      null,
      { timeout: 20_000 },
    );

    await page.getByText('All four agents have finished.').waitFor({ timeout: 30_000 });
    expect(await panelStates(page)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(
      await panel(page, 'Refiner')
        .getByText(/Kept 3 questions from 3 candidates/)
        .count(),
    ).toBe(1);

    // Ranked cards with their justification, grounding and the literature link.
    const cards = page.getByRole('article', { name: /^Question \d$/ });
    expect(await cards.count()).toBe(3);
    const first = page.getByRole('article', { name: 'Question 1' });
    await first.getByRole('heading', { name: QUESTIONS[2]!.question }).waitFor();
    await first.getByText('Prices keep moving and few works match it.').waitFor();
    const works = openalex.worksFor(QUESTIONS[2]!.searchQuery, 5);
    await first.getByRole('link', { name: `OpenAlex ${works[0]!.id}` }).waitFor();
    await first.getByText(/works in OpenAlex match “food prices poverty”/).waitFor();
    const review = new URL(
      (await first.getByRole('link', { name: 'Start a literature review' }).getAttribute('href'))!,
      server.baseUrl,
    );
    expect(review.pathname).toBe('/app/literature-team');
    expect(review.searchParams.get('question')).toBe(QUESTIONS[2]!.question);
    // The model's words carry its mark; the works, the retrieved one.
    await first.getByText('Written by the model, not checked').first().waitFor();
    await first.getByText('Retrieved and verified').waitFor();
    expect(await generate.isDisabled()).toBe(false);
    await expectAxeClean(page, 'questions');
    await shot(page, 'ideation-human-desktop');

    // Reloaded, the screen reopens the finished session with its own idea in the form (read from
    // the runtime's session: the team's logs reply does not carry it).
    expect(new URL(page.url()).searchParams.get('sessionId')).toMatch(/^[0-9a-f-]{36}$/);
    await page.reload();
    await page.getByText('All four agents have finished.').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => idea.inputValue())
      .toBe('Conservation payments, governance and food prices in poor countries');

    // Save to project with one call.
    await page.getByRole('button', { name: 'Save to project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save to project' });
    await dialog.getByRole('combobox', { name: 'Project' }).waitFor();
    await settleAnimations(page);
    await expectAxeClean(page, 'save dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved 3 questions to Conservation and food prices.').waitFor();
    const saved = await call<{ data: { project: { researchQuestions: string[] } } }>(
      server.baseUrl,
      'GET',
      `/api/projects/${projectId}`,
      { token: session.tokens.accessToken },
    );
    expect(saved.body.data.project.researchQuestions).toEqual([
      QUESTIONS[2]!.question,
      QUESTIONS[0]!.question,
      QUESTIONS[1]!.question,
    ]);
    expect(consoleErrors.filter((e) => /Failed to parse/.test(e))).toEqual([]);

    // "Start a literature review" opens the Literature screen with the question filled in.
    await first.getByRole('link', { name: 'Start a literature review' }).click();
    await page.getByRole('heading', { level: 1, name: 'Literature Review Team' }).waitFor();
    expect(await page.getByLabel('Research question').inputValue()).toBe(QUESTIONS[2]!.question);
    await page.context().close();
  }, 120_000);

  it('automatic mode at 390 px: 5 trending topics from counts, then the questions', async () => {
    llm.reset();
    openalex.reset();
    const window = trendWindow(new Date());
    openalex.setTopicCounts(sampleTopicCounts(window.recent[1]));
    scriptRun();
    const page = await openPage(browser, server.baseUrl, session, '/app/ideation-team', PHONE);
    await page.getByRole('button', { name: 'Start Workflow' }).click();
    await page.getByRole('button', { name: 'Automated Trend-Driven' }).click();
    const discover = page.getByRole('button', { name: 'Start Automatic Discovery' });
    await discover.click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-agent="Ideator"]')?.getAttribute('data-state') === 'active',
    );
    expect(await discover.isDisabled()).toBe(true);
    await shot(page, 'ideation-automatic-generating-phone');

    await page.getByText('All four agents have finished.').waitFor({ timeout: 30_000 });
    const topics = page.getByRole('article', { name: /^Trending topic \d$/ });
    expect(await topics.count()).toBe(5);
    await page
      .getByRole('article', { name: 'Trending topic 1' })
      .getByText(/^Artificial Intelligence in Economics: 1,350 works in/)
      .waitFor();
    await page
      .getByRole('article', { name: 'Trending topic 1' })
      .getByText('OpenAlex topic T10649')
      .waitFor();
    expect(await page.getByRole('article', { name: /^Question \d$/ }).count()).toBe(3);
    expect(await discover.isDisabled()).toBe(false);
    // Nothing wider than the phone screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAxeClean(page, 'automatic phone');
    await shot(page, 'ideation-automatic-phone');
    await page.context().close();
  }, 120_000);

  it("shows 'Error: {message}' when a run fails", async () => {
    llm.reset();
    llm.scriptPhase('ideation', 'ideate', { error: { status: 400, message: 'model refused' } });
    const page = await openPage(browser, server.baseUrl, session, '/app/ideation-team', PHONE);
    await page.getByRole('button', { name: 'Start Workflow' }).click();
    await page.getByRole('textbox', { name: 'Your research idea' }).fill('wages and robots');
    await page.getByRole('button', { name: 'Generate Research Questions' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /^Error: / });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/^Error: .*Ideator/);
    // The agent that was working shows it stopped; polling has ended.
    await panel(page, 'Ideator').getByText('Stopped', { exact: true }).waitFor();
    expect(await panelStates(page)).toEqual(['active', 'pending', 'pending', 'pending']);
    expect(
      await page.getByRole('button', { name: 'Generate Research Questions' }).isDisabled(),
    ).toBe(false);
    await shot(page, 'ideation-error-phone');
    await page.context().close();
  }, 60_000);
});
