import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asProposal } from '../server/agents/teams/model/prompts';
import { canonicalModel } from '../server/engines/models/library';
import { startDataFixtures, type DataFixtures } from '../test/fixtures/data-sources/server';
import { literatureScript, REVIEW_QUESTION } from '../test/fixtures/literature-sources/llm-script';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../test/fixtures/literature-sources/server';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import { ruleFromJson } from '../test/llm-server/scripts';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { apiOk, DESKTOP, newAccount, openPage, PHONE, screenshot, type Session } from './support';
import { checkText, formatFindings, type Finding } from './words.check';
import { hasSandbox, sandboxSkipReason } from '../test/requirements';

/**
 * Words: a full session of each of the five teams in Chromium (the scripted model server, the
 * literature and data fixture servers), every checkpoint approved, and everything the researcher
 * can read collected on the way: the text of every tab of the team's screen at each checkpoint
 * and at the end (with aria-labels, titles, alt texts and placeholders), every log line of the
 * session (the session logs API) and the text of every document the session saved. None may hold
 * an internal name, a broken sentence or code where words belong (e2e/words.check.ts; its rules
 * are unit-tested in test/words-check.test.ts). One server and one browser for the file; the
 * screens at 1440 px, the Literature screen again at 390 px.
 */

/**
 * Identifier-like words the test's own data brings in, allowed with the reason: what the
 * researcher named is shown as named.
 */
const NK = canonicalModel('NK');
const DATA_WORDS = new Map([
  ['regional_panel', "the test's file regional_panel.csv, the dataset's name"],
  ['gdp_usd', "a column of the test's file"],
  // Columns of a World Bank indicator as the connector names them (the API's own fields).
  ['country_id', 'a column of World Bank data (the API field country.id)'],
  ['obs_status', 'a column of World Bank data (the API field obs_status)'],
  // The NK model's own names of its variables, shocks and parameters (e_a, phi_pi, psi_ya):
  // the equations, tables and charts name them as the model (and its Dynare file) does.
  ...[...NK.endogenous, ...NK.exogenous, ...NK.parameters].map(
    (v) => [v.name, 'a name in the NK model'] as const,
  ),
]);
const ALLOW = [...DATA_WORDS.keys()];

const REGIONAL_PANEL = [
  'region,year,gdp_usd,inflation',
  ...['North', 'South', 'East'].flatMap((region, r) =>
    [2015, 2016, 2017, 2018, 2019, 2020].map(
      (year, i) =>
        `${region},${year},${(1.5 + r + i * 0.3).toFixed(2)},${i === 2 && r === 1 ? 'NA' : (2 + ((r + i) % 3) * 0.4).toFixed(1)}`,
    ),
  ),
].join('\n');

let server: RunningServer;
let llm: ScriptedLlmServer;
let literature: LiteratureFixtures;
let data: DataFixtures;
let browser: Browser;
let me: Session;
let workDir: string;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  literature = await startLiteratureFixtures();
  data = await startDataFixtures();
  const year = new Date().getUTCFullYear();
  const counts: Record<number, number> = {};
  for (let y = year - 11; y < year; y++) counts[y] = y >= year - 3 ? 240 : 120;
  literature.setYearCounts(counts);
  server = await startServer({
    env: {
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-model',
      OPENALEX_BASE_URL: literature.urls.openalex,
      OPENALEX_CACHE_SECONDS: '0',
      CROSSREF_BASE_URL: literature.urls.crossref,
      ARXIV_BASE_URL: literature.urls.arxiv,
      SEMANTIC_SCHOLAR_BASE_URL: literature.urls.semantic_scholar,
      WORLDBANK_BASE_URL: data.urls.worldbank,
      PROFILING_THREADS: '1',
    },
  });
  browser = await launchBrowser();
  me = (await newAccount(server, { displayName: 'Wanda Words' })).session;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'words-e2e-'));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await data?.close();
  await literature?.close();
  await llm?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Collecting
// ---------------------------------------------------------------------------------------------

/**
 * Code, programs and rendered mathematics: not prose, left out of the screen's text. So is text
 * set in a monospace font, the app's way of showing a value as typed (a missing-value token, a
 * file's name).
 */
const NOT_PROSE = [
  'pre',
  'code',
  'textarea',
  '.cm-editor',
  '.katex',
  '[role="math"]',
  'script',
  'style',
].join(', ');

/**
 * The page's visible text without code, and its labels, titles, alt texts and placeholders.
 * Boxes laid out inline (buttons, chips, form fields) are read as lines of their own, as the eye
 * reads them: innerText would run two neighbouring fields' labels into one word.
 */
async function pageWords(page: Page): Promise<{ text: string; labels: string[] }> {
  return page.evaluate((skip) => {
    const changed: Array<[HTMLElement, string, string]> = [];
    const set = (el: HTMLElement, display: string) => {
      changed.push([
        el,
        el.style.getPropertyValue('display'),
        el.style.getPropertyPriority('display'),
      ]);
      el.style.setProperty('display', display, 'important');
    };
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const style = getComputedStyle(el);
      if (el.matches(skip) || /monospace/.test(style.fontFamily)) set(el, 'none');
      else if (style.display.startsWith('inline-')) set(el, style.display.slice(7));
    }
    const text = document.body.innerText;
    for (const [el, display, priority] of changed.reverse())
      el.style.setProperty('display', display, priority);
    const attributes = ['aria-label', 'title', 'alt', 'placeholder'];
    const labels = [...document.querySelectorAll(attributes.map((a) => `[${a}]`).join(','))]
      .filter((el) => !el.closest(skip))
      .flatMap((el) => attributes.map((a) => el.getAttribute(a) ?? ''))
      .filter((v) => v.trim() !== '');
    return { text, labels };
  }, NOT_PROSE);
}

class Collector {
  readonly findings: Finding[] = [];
  private readonly seen = new Set<string>();
  /** Everything read, to show the collector read what the researcher sees. */
  private read = '';

  constructor(readonly team: string) {}

  add(text: string, where: string, kind: 'prose' | 'code' = 'prose') {
    this.read += `${text}\n`;
    for (const f of checkText(text, `${this.team} / ${where}`, { allow: ALLOW, kind })) {
      const key = `${f.rule}\u0000${f.text}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.findings.push(f);
    }
  }

  /** The current tab, then every tab of the screen, as the researcher would read them. */
  async screen(page: Page, state: string) {
    const width = page.viewportSize()?.width ?? 0;
    await settle(page);
    const here = await pageWords(page);
    this.add(here.text, `${state}, screen (${width} px)`);
    this.add(here.labels.join('\n'), `${state}, labels (${width} px)`);
    const tabs = await page.locator('main [role="tab"]').allTextContents();
    for (const name of tabs) {
      const tab = page.getByRole('tab', { name, exact: true });
      if ((await tab.count()) !== 1 || (await tab.isDisabled())) continue;
      await tab.click();
      await settle(page);
      const words = await pageWords(page);
      this.add(words.text, `${state}, tab ${name} (${width} px)`);
      this.add(words.labels.join('\n'), `${state}, tab ${name} labels (${width} px)`);
    }
  }

  /** Every log line of the team's sessions, through the session logs API. */
  async logs(teamId: string) {
    const token = me.tokens.accessToken;
    const list = await apiOk<{ sessions: Array<{ sessionId: string }> }>(
      server,
      'GET',
      `/api/agents/sessions?teamId=${teamId}&limit=100`,
      { token },
    );
    expect(list.sessions.length).toBeGreaterThan(0);
    for (const { sessionId: id } of list.sessions) {
      let after = 0;
      for (;;) {
        const page = await apiOk<{ logs: string[]; cursor: number; hasMore: boolean }>(
          server,
          'GET',
          `/api/agents/sessions/${id}/logs?after=${after}&limit=1000`,
          { token },
        );
        for (const line of page.logs) this.add(line, `log of session ${id.slice(0, 8)}`);
        if (!page.hasMore) break;
        after = page.cursor;
      }
    }
  }

  /** The text of the documents saved since the last call (Markdown and text as prose). */
  async documents(checked: Set<string>): Promise<number> {
    const token = me.tokens.accessToken;
    const list = await apiOk<{ data: { documents: Array<{ id: string; name: string }> } }>(
      server,
      'GET',
      '/api/documents?limit=100',
      { token },
    );
    let count = 0;
    for (const { id, name } of list.data.documents) {
      if (checked.has(id)) continue;
      checked.add(id);
      count += 1;
      const doc = await apiOk<{ data: { document: { format: string; content: string } } }>(
        server,
        'GET',
        `/api/documents/${id}`,
        { token },
      );
      const { format, content } = doc.data.document;
      const where = `document "${name}" (${format})`;
      // A program saved as text (a Dynare .mod file, a script) is code, named as its file.
      const program = /\.(?:mod|py|r|m|jl|do|tex|bib)$/i.test(name);
      if (!program) this.add(name, `${where}, name`);
      if ((format === 'md' || format === 'txt') && !program) this.add(content, where);
      else if (format === 'json') this.add(jsonStrings(content).join('\n'), where, 'code');
      else if (format !== 'pdf') this.add(content, where, 'code');
    }
    return count;
  }

  /** Fails unless every phrase was among the texts read (the collector saw the run). */
  expectRead(...phrases: string[]) {
    for (const phrase of phrases) expect(this.read, `${this.team} read`).toContain(phrase);
  }

  expectClean() {
    expect(formatFindings(this.findings), `words ${this.team} shows`).toBe('');
  }
}

/** Every string value of a JSON text. */
function jsonStrings(content: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(content));
  return out;
}

async function settle(page: Page) {
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"]'), null, {
    timeout: 20_000,
  });
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

const documentsChecked = new Set<string>();

async function open(route: string, heading: string, size = DESKTOP): Promise<Page> {
  const page = await openPage(browser, server, me, `/app/${route}`, size);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return page;
}

async function approve(page: Page) {
  await page.getByRole('button', { name: 'Approve & Continue' }).click();
}

// ---------------------------------------------------------------------------------------------
// The five teams
// ---------------------------------------------------------------------------------------------

describe('Words on every team screen, log and saved document', () => {
  it('Ideation: a human-mode run to the ranked questions', async () => {
    const words = new Collector('Ideation');
    llm.scriptPhase('ideation', 'ideate', {
      json: {
        candidates: [
          'Payments for ecosystem services',
          'Governance and development',
          'Food prices and poverty',
        ],
      },
    });
    const questions = [
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
    llm.scriptPhase('ideation', 'refine', { json: { questions } });
    llm.scriptPhase('ideation', 'contextualize', {
      json: {
        questions: questions.map((_, i) => ({
          id: `Q${i + 1}`,
          theory: ['contract theory', 'institutional economics', 'consumer welfare'][i]!,
          context: 'The retrieved works study this directly [W1].',
          citedWorks: ['W1'],
        })),
      },
    });
    llm.scriptPhase('ideation', 'finalize', {
      json: {
        ranking: [
          { id: 'Q3', justification: 'Prices keep moving and few works match it.' },
          { id: 'Q1', justification: 'Payment design is still open [W2].' },
          { id: 'Q2', justification: 'Governance data are rich.' },
        ],
      },
    });
    const page = await open('ideation-team', 'Ideation Team');
    await words.screen(page, 'before the start');
    await page.getByRole('button', { name: 'Start Workflow' }).click();
    await page
      .getByRole('textbox', { name: 'Your research idea' })
      .fill('Conservation payments and food prices in poor countries');
    await page.getByRole('button', { name: 'Generate Research Questions' }).click();
    const finished = page.getByText('All four agents have finished.');
    await finished.or(page.getByRole('alert')).first().waitFor({ timeout: 60_000 });
    expect(await finished.count(), await page.locator('main').innerText()).toBe(1);
    await page.getByRole('article', { name: 'Question 1' }).waitFor();
    await words.screen(page, 'completed');
    await screenshot(page, 'words-ideation');
    await page.context().close();
    await words.logs('ideation');
    await words.documents(documentsChecked);
    words.expectRead(
      'All four agents have finished.',
      'Prices keep moving and few works match it.',
    );
    words.expectClean();
  }, 120_000);

  it('Literature: a review through its three checkpoints, and its screen at 390 px', async () => {
    const words = new Collector('Literature');
    for (const rule of literatureScript()) llm.script(ruleFromJson(rule));
    const page = await open('literature-team', 'Literature Review Team');
    await page.getByLabel('Research question').fill(REVIEW_QUESTION);
    await page.getByRole('button', { name: 'Start Literature Review' }).click();
    for (const title of [
      'Checkpoint 1: Literature Search Review',
      'Checkpoint 2: Research Gaps Review',
      'Checkpoint 3: Report Review',
    ]) {
      await page.getByRole('heading', { name: title }).waitFor({ timeout: 90_000 });
      await page.getByRole('status', { name: 'Status: Waiting for Input' }).waitFor();
      await words.screen(page, title);
      await approve(page);
    }
    await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 90_000 });
    await words.screen(page, 'completed');
    const sessionUrl = new URL(page.url());
    await page.context().close();

    // The same session on a phone.
    const phone = await openPage(
      browser,
      server,
      me,
      `${sessionUrl.pathname}${sessionUrl.search}`,
      PHONE,
    );
    await phone.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 30_000 });
    await words.screen(phone, 'completed');
    await screenshot(phone, 'words-literature');
    await phone.context().close();

    await words.logs('literature');
    expect(await words.documents(documentsChecked)).toBeGreaterThan(0);
    words.expectRead('Emerging Trends', 'Saved the report as the document', '## Introduction');
    words.expectClean();
  }, 240_000);

  it('Data: an uploaded CSV and a World Bank indicator through the profile checkpoint', async () => {
    const words = new Collector('Data');
    llm.scriptPhase('data', 'analysis', {
      text: 'Output grows in every region; inflation moves little.',
    });
    const file = path.join(workDir, 'regional_panel.csv');
    fs.writeFileSync(file, REGIONAL_PANEL);
    const page = await open('data-team', 'Data Team');
    await page.locator('#data-file').setInputFiles(file);
    await page.getByRole('button', { name: 'Start Analysis' }).click();
    await page
      .getByRole('heading', { name: 'Checkpoint: Data Profile Review' })
      .waitFor({ timeout: 90_000 });
    await words.screen(page, 'checkpoint');
    await approve(page);
    await page.getByText(/Analysis completed on “regional_panel”/).waitFor({ timeout: 90_000 });
    await words.screen(page, 'completed');
    await screenshot(page, 'words-data');
    await page.context().close();

    // A World Bank indicator from the data fixture server: the source's own licence and citation.
    const api = await open('data-team', 'Data Team');
    await api.getByLabel('Data source').click();
    await api.getByRole('option', { name: 'Public API' }).click();
    await api.getByLabel('Dataset ID').fill('JPN/NY.GDP.MKTP.CD');
    await api.getByRole('button', { name: 'Start Analysis' }).click();
    await api
      .getByRole('heading', { name: 'Checkpoint: Data Profile Review' })
      .waitFor({ timeout: 90_000 });
    await words.screen(api, 'World Bank checkpoint');
    await approve(api);
    await api.getByText(/Analysis completed on/).waitFor({ timeout: 90_000 });
    await words.screen(api, 'World Bank completed');
    await api.context().close();
    await words.logs('data');
    expect(await words.documents(documentsChecked)).toBeGreaterThan(0);
    words.expectRead('Column statistics', 'Data dictionary', 'Licence: As stated by the uploader.');
    words.expectClean();
  }, 180_000);

  it('Model: an NK model through its three checkpoints', async () => {
    const words = new Collector('Model');
    llm.scriptPhase('model', 'theory', {
      json: {
        framework:
          '## Adapted framework\n\nA cost channel makes the nominal rate $i_t$ a cost of production.',
        assumptions: ['Firms borrow to pay wages'],
        mechanisms: ['Higher rates raise marginal cost'],
        agents: ['Households', 'Firms', 'Central bank'],
        markets: ['Goods', 'Labour', 'Bonds'],
        references: [1, 4],
      },
    });
    llm.scriptPhase('model', 'model', {
      json: {
        explanation: 'The canonical equations serve this focus.',
        ...asProposal(canonicalModel('NK')),
      },
    });
    const page = await open('model-team', 'Model Team');
    await page.getByRole('combobox', { name: 'Model type' }).click();
    await page.getByRole('option', { name: 'NK (three-equation New Keynesian)' }).click();
    await page.getByLabel('Topical focus').fill('The cost channel of monetary policy');
    await page.getByRole('button', { name: 'Develop Model' }).click();
    for (const title of [
      'Checkpoint 1: Theoretical Framework Review',
      'Checkpoint 2: Mathematical Model Review',
      'Checkpoint 3: Calibration Results Review',
    ]) {
      await page.getByRole('heading', { name: title }).waitFor({ timeout: 90_000 });
      await words.screen(page, title);
      await approve(page);
    }
    await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 90_000 });
    await words.screen(page, 'completed');
    await screenshot(page, 'words-model');
    await page.context().close();
    await words.logs('model');
    expect(await words.documents(documentsChecked)).toBeGreaterThan(0);
    words.expectRead('Blanchard-Kahn conditions are satisfied', 'Calibrated parameters');
    words.expectClean();
  }, 240_000);

  it.skipIf(!hasSandbox)(
    `Code: a comprehensive session whose tests fail until the model repairs the code${sandboxSkipReason}`,
    async () => {
      const words = new Collector('Code');
      const main = [
        'import numpy as np',
        '',
        '',
        'def mean_wage(wages):',
        '    return float(np.mean(wages))',
        '',
        '',
        'if __name__ == "__main__":',
        '    print("mean wage:", mean_wage([10.0, 20.0, 30.0]))',
        '',
      ].join('\n');
      const wrong = main
        .replace('import numpy as np\n\n\n', '')
        .replace('float(np.mean(wages))', 'sum(wages) / (len(wages) - 1)');
      const fixed = wrong.replace('(len(wages) - 1)', 'len(wages)');
      const tests = [
        'import pytest',
        'from main import mean_wage',
        '',
        '',
        'def test_mean_of_three():',
        '    assert mean_wage([10.0, 20.0, 30.0]) == pytest.approx(20.0)',
        '',
      ].join('\n');
      llm.scriptPhase('code', 'generation', { json: { code: main, explanation: 'Mean wage.' } });
      llm.scriptPhase('code', 'review', {
        json: {
          summary: 'Reviewed.',
          findings: [
            { criterion: 'clarity', severity: 'medium', lines: [4], comment: 'No docstring.' },
          ],
        },
      });
      llm.scriptPhase('code', 'optimization', {
        json: { optimized_code: wrong, changes: ['Dropped numpy'] },
      });
      llm.scriptPhase('code', 'tests', { json: { test_code: tests } });
      llm.script({
        agent: 'code',
        phase: 'tests',
        match: /tests failed when run/,
        replies: [{ json: { code: fixed, test_code: null, explanation: 'Divide by n.' } }],
      });
      const page = await open('code-team', 'Code Team');
      await page.getByRole('button', { name: 'Comprehensive' }).click();
      await page.getByLabel('Code requirements').fill('A function computing the mean wage.');
      await page.getByRole('button', { name: 'Develop Code' }).click();
      await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 90_000 });
      await words.screen(page, 'completed');
      await screenshot(page, 'words-code');
      await page.context().close();
      await words.logs('code');
      await words.documents(documentsChecked);
      words.expectRead('Tests passed in the sandbox.', 'Attempt 1:', 'No docstring.');
      words.expectClean();
    },
    180_000,
  );

  it('after the runs: the dashboard, the Agent Workflow page and the notifications', async () => {
    const words = new Collector('Shell');
    const dashboard = await open('', 'Dashboard');
    await words.screen(dashboard, 'dashboard');
    await dashboard.context().close();

    const workflow = await open('agent-workflow', 'Agent Workflow');
    await words.screen(workflow, 'agent workflow');
    await screenshot(workflow, 'words-agent-workflow');
    // The notifications menu, as the bell opens it.
    await workflow.getByRole('button', { name: /^Notifications/ }).click();
    const menu = workflow.getByRole('menu', { name: 'Notifications' });
    await menu.getByRole('menuitem').first().waitFor();
    await settle(workflow);
    words.add(await menu.innerText(), 'notifications menu');
    await workflow.context().close();

    const notes = await apiOk<{
      data: { notifications: Array<{ title: string; message: string }> };
    }>(server, 'GET', '/api/notifications?limit=100', { token: me.tokens.accessToken });
    expect(notes.data.notifications.length).toBeGreaterThan(0);
    for (const n of notes.data.notifications) words.add(`${n.title}\n${n.message}`, 'notification');
    words.expectRead('session completed');
    words.expectClean();
  }, 120_000);
});
