import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { literatureScript, REVIEW_QUESTION } from '../test/fixtures/literature-sources/llm-script';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../test/fixtures/literature-sources/server';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import { ruleFromJson } from '../test/llm-server/scripts';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { DESKTOP, PHONE } from './support';
import {
  approvedUser,
  call,
  expectAxeClean,
  openPage,
  shot,
  type Session,
} from './web-pages.helpers';

/**
 * The Literature Review Team screen in Chromium against the real server, the fixture sources
 * (OpenAlex, Crossref, arXiv, Semantic Scholar in their real formats) and the scripted model
 * server: a review through all three checkpoints with feedback that changes the gaps and the
 * report, the tab switching, the verified report with KaTeX, the downloads, and the labelled
 * sample data after a 404.
 */

const USER = {
  email: 'lit.review@e2e.example',
  password: 'lit-review-password-1',
  displayName: 'Lit Review',
};

let server: RunningServer;
let llm: ScriptedLlmServer;
let fixtures: LiteratureFixtures;
let browser: Browser;
let me: Session;
/** The session the full review completed (reopened by its link in a later test). */
let completedSessionId: string | undefined;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  for (const rule of literatureScript()) llm.script(ruleFromJson(rule));
  fixtures = await startLiteratureFixtures();
  const year = new Date().getUTCFullYear();
  const counts: Record<number, number> = {};
  for (let y = year - 11; y < year; y++) counts[y] = y >= year - 3 ? 240 : 120;
  fixtures.setYearCounts(counts);
  server = await startServer({
    env: {
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-model',
      OPENALEX_BASE_URL: fixtures.urls.openalex,
      CROSSREF_BASE_URL: fixtures.urls.crossref,
      ARXIV_BASE_URL: fixtures.urls.arxiv,
      SEMANTIC_SCHOLAR_BASE_URL: fixtures.urls.semantic_scholar,
    },
  });
  browser = await launchBrowser();
  me = await approvedUser(server, USER);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fixtures?.close();
  await llm?.close();
});

async function open(path = '/app/literature-team'): Promise<Page> {
  const page = await openPage(browser, server.baseUrl, me, path);
  await page.getByRole('heading', { level: 1, name: 'Literature Review Team' }).waitFor();
  return page;
}

const selectedTab = (page: Page) =>
  page.getByRole('tab', { selected: true }).textContent({ timeout: 5000 });

async function waitForCheckpoint(page: Page, title: string) {
  await page.getByRole('heading', { name: title }).waitFor({ timeout: 60_000 });
  await page.getByRole('status', { name: 'Status: Waiting for Input' }).waitFor();
}

async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  const at = await file.path();
  return { name: file.suggestedFilename(), text: fs.readFileSync(at, 'utf8') };
}

describe('Literature Review Team screen', () => {
  it('asks for a question before starting, and is axe-clean', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Start Literature Review' }).click();
    await page.getByText('Please enter a research question first').waitFor();
    for (const name of ['Results', 'Research Gaps', 'References', 'Console Logs'])
      expect(await page.getByRole('tab', { name }).count()).toBe(1);
    expect(
      await page.getByRole('navigation', { name: 'Literature review phases' }).textContent(),
    ).toContain('HITL');
    await expectAxeClean(page, 'literature team screen');
    await page.context().close();
  });

  it('runs a review through the three checkpoints, with feedback that changes the gaps and the report', async () => {
    const page = await open();
    await page.getByLabel('Research question').fill(REVIEW_QUESTION);
    await page.getByRole('button', { name: 'Start Literature Review' }).click();
    // Starting switches to the Console Logs; the workflow selector is disabled while processing.
    expect(await selectedTab(page)).toBe('Console Logs');

    // Checkpoint 1: Research Gaps with the Emerging Trends.
    await waitForCheckpoint(page, 'Checkpoint 1: Literature Search Review');
    expect(await selectedTab(page)).toBe('Research Gaps');
    await page.getByText('Few studies measure the long-run poverty effects').waitFor();
    await page.getByRole('heading', { name: 'Emerging Trends' }).waitFor();
    await page
      .getByText(/OpenAlex lists 240 works a year/)
      .first()
      .waitFor();
    expect(await page.getByText(/Session: [0-9a-f-]{36}/).count()).toBe(1);
    await shot(page, 'literature-checkpoint-1');

    await page
      .getByLabel('Your feedback')
      .fill('Only after 2010, and focus on developing countries');
    await page.getByRole('button', { name: 'Submit Feedback' }).click();
    await page
      .getByText(
        'Developing-country evidence on payments for watershed services after 2010 is scarce.',
      )
      .waitFor({ timeout: 60_000 });
    await waitForCheckpoint(page, 'Checkpoint 1: Literature Search Review');

    // Checkpoint 2: References, downloadable as BibTeX, RIS and CSL-JSON.
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await waitForCheckpoint(page, 'Checkpoint 2: Research Gaps Review');
    expect(await selectedTab(page)).toBe('References');
    const references = page.getByRole('list', { name: 'References' }).getByRole('listitem');
    await references.nth(3).waitFor();
    expect(await references.count()).toBeGreaterThan(3);
    const bib = await download(page, 'BibTeX');
    expect(bib.name).toMatch(/^literature-references-\d{4}-\d{2}-\d{2}\.bib$/);
    expect(bib.text).toMatch(/^@\w+\{/m);
    const ris = await download(page, 'RIS');
    expect(ris.text).toMatch(/^TY {2}- /m);
    const csl = await download(page, 'CSL-JSON');
    expect((JSON.parse(csl.text) as unknown[]).length).toBe(await references.count());

    // Checkpoint 3: the verified report, rendered with KaTeX; its Markdown on request.
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await waitForCheckpoint(page, 'Checkpoint 3: Report Review');
    expect(await selectedTab(page)).toBe('Results');
    const report = page.getByRole('region', { name: 'Report', exact: true });
    await report.getByRole('heading', { name: 'Introduction' }).waitFor();
    expect(await report.locator('.katex').count()).toBeGreaterThan(0);
    const text = (await report.textContent()) ?? '';
    expect(text).not.toContain('[99]');
    expect(text).not.toContain('Fakeauthor');
    expect(text).toContain('Claim check: not supported by the abstract');
    await page.getByText('removed by the verifier').waitFor();
    // The model's sections carry its mark; the verification counts the figures it checked.
    await report.getByText('Written by the model, not checked').first().waitFor();
    await page.getByText(/\d+ of \d+ figures unverified/).waitFor();
    await report.getByRole('heading', { name: 'Publication Trends (computed)' }).waitFor();
    await page.getByLabel('Show Markdown Code').check();
    expect(await page.getByLabel('Report Markdown').textContent()).toContain('## Introduction');
    await page.getByLabel('Show Markdown Code').uncheck();
    await shot(page, 'literature-checkpoint-3');

    await page
      .getByLabel('Your feedback')
      .fill('Say in the conclusion that developing countries need evidence');
    await page.getByRole('button', { name: 'Submit Feedback' }).click();
    await page.getByText('Revised after feedback').waitFor({ timeout: 60_000 });

    // Completed: the report downloads as text and JSON with the date in the name.
    await waitForCheckpoint(page, 'Checkpoint 3: Report Review');
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Start New Review' }).waitFor();
    const md = await download(page, 'Download report');
    expect(md.name).toMatch(/^literature-review-\d{4}-\d{2}-\d{2}\.md$/);
    expect(md.text).toContain('Revised after feedback');
    const json = await download(page, 'Download JSON');
    expect(JSON.parse(json.text)).toMatchObject({ status: 'completed', sample: false });
    await page.getByRole('tab', { name: 'Console Logs' }).click();
    await page.getByText(/Saved the report as the document/).waitFor();

    // Reloaded after completion, the screen shows the session's own question, not an empty form.
    await page.reload();
    await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 20_000 });
    const question = page.getByLabel('Research question', { exact: true });
    await expect.poll(() => question.inputValue(), { timeout: 10_000 }).toBe(REVIEW_QUESTION);
    completedSessionId = new URL(page.url()).searchParams.get('sessionId') ?? undefined;
    await page.context().close();

    // The saved report, opened from Documentation, keeps the model's mark on its passages, and
    // its Provenance lists the works retrieved in the session; the invented reference is nowhere.
    const sessionId = new URL(page.url()).searchParams.get('sessionId');
    const listed = await call<{
      data: { documents: { id: string; name: string; category: string; format: string }[] };
    }>(server.baseUrl, 'GET', '/api/documents?limit=50', { token: me.tokens.accessToken });
    // The session saves its report (Markdown) and its bibliography (BibTeX).
    const reports = listed.body.data.documents.filter(
      (d) => d.category === 'literature_review' && d.format === 'md',
    );
    expect(reports.length).toBeGreaterThan(0);
    const docPage = await openPage(
      browser,
      server.baseUrl,
      me,
      `/app/documentation?doc=${reports[0]!.id}`,
    );
    const content = docPage.getByTestId('document-content');
    await content.getByText('Written by the model, not checked').first().waitFor();
    expect(await content.textContent()).not.toContain('Fakeauthor');
    await docPage.getByRole('tab', { name: 'Provenance' }).click();
    const panel = docPage.getByTestId('provenance-panel');
    await panel.getByText(`session ${sessionId}`, { exact: false }).waitFor();
    const retrieved = panel.getByRole('region', { name: 'Retrieved records' }).locator('li');
    await retrieved.first().waitFor();
    expect(await retrieved.count()).toBeGreaterThan(3);
    expect(await retrieved.first().textContent()).toMatch(/openalex|crossref|arxiv|semantic/i);
    const items = panel.getByRole('table', { name: 'Items and their origins' });
    await items.getByText('Written by the model, not checked').first().waitFor();
    expect(await panel.textContent()).not.toContain('Fakeauthor');
    await shot(docPage, 'literature-report-provenance');
    await docPage.context().close();
  });

  it('takes the question, the library and the search settings from the screen and the project', async () => {
    const token = me.tokens.accessToken;
    const project = await call<{ data: { project: { id: string } } }>(
      server.baseUrl,
      'POST',
      '/api/projects',
      {
        token,
        body: {
          title: 'Conservation payments',
          researchArea: 'Environmental Economics',
          researchQuestions: ['Do land titles raise investment?', REVIEW_QUESTION],
        },
      },
    );
    expect(project.status).toBe(201);
    const projectId = project.body.data.project.id;
    const bib = await call(server.baseUrl, 'POST', '/api/documents', {
      token,
      body: {
        name: 'My conservation library',
        category: 'literature_review',
        format: 'bib',
        projectId,
        content:
          '@article{wunder2008, title={Payments for environmental services and the poor: ' +
          'concepts and preliminary evidence}, author={Wunder, Sven}, year={2008}, ' +
          'abstract={Payments for ecosystem services can reduce poverty when the poor sell conservation.}}',
      },
    });
    expect(bib.status).toBe(201);

    // Opened from Ideation's link: the question is filled in, in the project.
    const page = await open(
      `/app/literature-team?projectId=${projectId}&question=${encodeURIComponent('Why do wages differ?')}`,
    );
    const questionField = page.getByLabel('Research question', { exact: true });
    expect(await questionField.inputValue()).toBe('Why do wages differ?');

    // A research question of the project replaces it.
    await page.getByRole('combobox', { name: 'A research question of the project' }).click();
    await page.getByRole('option', { name: REVIEW_QUESTION }).click();
    expect(await questionField.inputValue()).toBe(REVIEW_QUESTION);

    // Search settings: two sources, the years, 10 works and the project's BibTeX document.
    await page.getByRole('button', { name: /^Search settings/ }).click();
    await page.getByRole('checkbox', { name: 'arXiv' }).uncheck();
    await page.getByRole('checkbox', { name: 'Semantic Scholar' }).uncheck();
    await page.getByRole('checkbox', { name: 'Crossref' }).uncheck();
    await page.getByLabel('Number of works').fill('500');
    await page.getByRole('button', { name: 'Start Literature Review' }).click();
    await page.getByText('A number from 5 to 100').waitFor();
    await page.getByLabel('Number of works').fill('10');
    await page.getByLabel('Published from').fill('2000');
    await page.getByRole('checkbox', { name: 'My conservation library (BIB)' }).check();
    await expectAxeClean(page, 'literature search settings');
    await page.getByRole('button', { name: 'Start Literature Review' }).click();

    await waitForCheckpoint(page, 'Checkpoint 1: Literature Search Review');
    await page.getByRole('tab', { name: 'Console Logs' }).click();
    await page
      .getByText('Read 1 works from the project document "My conservation library"')
      .waitFor();
    await page
      .getByText(/kept the top \d+ by relevance, citations and recency \(published 2000-…\)/)
      .waitFor();

    // The session is the project's, with the settings chosen.
    const sessionId = new URL(page.url()).searchParams.get('sessionId');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await call<{
      session: { projectId: string; configuration: Record<string, unknown> };
    }>(server.baseUrl, 'GET', `/api/agents/sessions/${sessionId}`, { token });
    expect(stored.body.session.projectId).toBe(projectId);
    expect(stored.body.session.configuration).toMatchObject({
      sources: ['openalex', 'library'],
      fromYear: 2000,
      topN: 10,
      libraryDocumentIds: [
        bib.body && (bib.body as { data: { document: { id: string } } }).data.document.id,
      ],
    });
    await shot(page, 'literature-project-inputs');
    await page.context().close();
  }, 120_000);

  it("reopens a finished review by its link with the session's question and settings, at 1440 and 390 px", async () => {
    expect(completedSessionId).toMatch(/^[0-9a-f-]{36}$/);
    for (const size of [DESKTOP, PHONE]) {
      const page = await openPage(
        browser,
        server.baseUrl,
        me,
        `/app/literature-team?sessionId=${completedSessionId}`,
        size,
      );
      await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 20_000 });
      const question = page.getByLabel('Research question', { exact: true });
      await expect.poll(() => question.inputValue(), { timeout: 10_000 }).toBe(REVIEW_QUESTION);
      // The search settings are the session's (the defaults here: 40 works).
      await page.getByRole('button', { name: /^Search settings/ }).click();
      expect(await page.getByLabel('Number of works').inputValue()).toBe('40');
      await shot(page, 'literature-reopened-session');
      await page.context().close();
    }
  });

  it('shows the built-in sample data, labelled, when the server answers 404', async () => {
    const page = await open('/app/literature-team?session=00000000-0000-4000-8000-000000000000');
    await page.getByText('sample data', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByText(/Showing built-in sample data/).waitFor();
    await page
      .getByRole('region', { name: 'Report', exact: true })
      .getByText(/not a review of real works/)
      .waitFor();
    await page.context().close();
  });
});
