import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MODEL_TYPES } from '../common/teams/model';
import { canonicalModel } from '../server/engines/models/library';
import { asProposal } from '../server/agents/teams/model/prompts';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { approvedUser, expectAxeClean, openPage, type Session } from './web-pages.helpers';

/**
 * The Model Team screen against the real
 * server and the scripted model server: the focus validation, a three-equation NK session
 * through the three checkpoints (the adapted framework, the equations rendered with KaTeX and
 * the engine's checks, the calibration tables and charts), feedback at checkpoint 3 that sets a
 * parameter and re-computes the results, completion with the saved documents, the Markdown
 * download, and an RBC session whose target moments come from a catalog dataset. Text the model
 * wrote is marked as such; each parameter says where its value came from. A custom model is
 * imported from Dynare's example1.mod through the file picker, and a file the engine refuses is
 * answered with its line.
 */

const USER = {
  email: 'mona.model@e2e.example',
  password: 'mona-password-1',
  displayName: 'Mona Model',
};

let server: RunningServer;
let llm: ScriptedLlmServer;
let browser: Browser;
let mona: Session;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  server = await startServer({
    env: {
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-model',
    },
  });
  browser = await launchBrowser();
  mona = await approvedUser(server, USER);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
});

async function open(): Promise<Page> {
  const page = await openPage(browser, server.baseUrl, mona, '/app/model-team');
  await page.getByRole('heading', { level: 1, name: 'Model Team' }).waitFor();
  return page;
}

async function checkpoint(page: Page, title: string): Promise<void> {
  await page.getByRole('heading', { name: title }).waitFor({ timeout: 90_000 });
}

describe('Model Team screen', () => {
  it('asks for a focus before it calls the server, and is axe-clean', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Develop Model' }).click();
    await page.getByText('Please enter a topical focus for the model').waitFor();
    for (const name of ['Theory', 'Model', 'Calibration', 'Logs']) {
      expect(await page.getByRole('tab', { name }).count()).toBe(1);
    }
    await expectAxeClean(page, 'model team screen');
    await page.context().close();
  });

  it('develops an NK model through the three checkpoints, with feedback that changes a parameter', async () => {
    llm.reset();
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
    // the model keeps the canonical equations (the engine checks them all the same)
    llm.scriptPhase('model', 'model', {
      json: {
        explanation: 'The canonical equations serve this focus.',
        ...asProposal(canonicalModel('NK')),
      },
    });
    const page = await open();
    await page.getByRole('combobox', { name: 'Model type' }).click();
    await page.getByRole('option', { name: 'NK (three-equation New Keynesian)' }).click();
    await page.getByLabel('Simulation periods').fill('not a number');
    await page.getByLabel('Topical focus').fill('The cost channel of monetary policy');
    await page.getByRole('button', { name: 'Develop Model' }).click();
    expect(await page.getByLabel('Simulation periods').inputValue()).toBe('240');

    // Checkpoint 1: the adapted framework
    await checkpoint(page, 'Checkpoint 1: Theoretical Framework Review');
    await page.getByRole('tab', { name: 'Theory', selected: true }).waitFor();
    await page.getByText('A cost channel makes the nominal rate').waitFor();
    await page.getByText('Adapted by the language model').waitFor();
    // the framework the model wrote is marked as written by the model, not checked
    const written = page.getByRole('region', { name: 'Framework written by the model' });
    await written.getByText('Written by the model, not checked').waitFor();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();

    // Checkpoint 2: the equations in KaTeX and what the engine checked
    await checkpoint(page, 'Checkpoint 2: Mathematical Model Review');
    await page.getByRole('tab', { name: 'Model', selected: true }).waitFor();
    await page.getByText('Dynamic IS curve').waitFor();
    expect(await page.locator('[role="tabpanel"] .katex-display').count()).toBe(9);
    await page
      .getByText(/Blanchard-Kahn conditions are satisfied/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();

    // Checkpoint 3: calibration tables and charts
    await checkpoint(page, 'Checkpoint 3: Calibration Results Review');
    await page.getByRole('tab', { name: 'Calibration', selected: true }).waitFor();
    const params = page.getByRole('table', { name: 'Calibrated parameters' });
    await params.waitFor();
    const thetaRow = params
      .getByRole('row')
      .filter({ has: page.getByText('theta', { exact: true }) });
    // The library's NK takes theta = 3/4 from Galí (2015).
    expect(await thetaRow.textContent()).toContain('0.75');
    expect(await thetaRow.textContent()).toContain('Library value');
    // charts draw after they measure their box: wait for them rather than count at once
    await page.locator('figure svg').nth(2).waitFor();
    await page.getByRole('figure', { name: /Response to a monetary policy innovation/ }).waitFor();
    await expectAxeClean(page, 'model team calibration');

    // Feedback that sets a parameter: the calibration is computed again
    await page
      .getByLabel('Your feedback')
      .fill('Please use theta = 0.8 (prices last five quarters).');
    await page.getByRole('button', { name: 'Submit Feedback' }).click();
    await page.getByText('your value').waitFor({ timeout: 90_000 });
    await checkpoint(page, 'Checkpoint 3: Calibration Results Review');
    expect(await thetaRow.textContent()).toContain('0.8');
    // the researcher's own words, not the library's justification of 3/4
    expect(await thetaRow.textContent()).toContain('Set by the researcher: theta = 0.8');
    expect(await thetaRow.textContent()).not.toContain('Galí');
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByText('Feedback sets theta = 0.8').waitFor();
    await page.getByRole('tab', { name: 'Calibration' }).click();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();

    // Completed: the documents are saved; the Markdown download
    await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 90_000 });
    await page.getByText(/Saved 4 documents/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^model-nk-\d{4}-\d{2}-\d{2}\.md$/);

    // Reloaded, the screen reopens the session with its own model type and focus in the form.
    await page.reload();
    await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.getByLabel('Topical focus').inputValue())
      .toBe('The cost channel of monetary policy');
    expect(await page.getByRole('combobox', { name: 'Model type' }).textContent()).toContain(
      'NK (three-equation New Keynesian)',
    );
    await page.context().close();
  }, 240_000);

  it('calibrates to the moments of a catalog dataset chosen in the configuration', async () => {
    // the dataset enters the catalog through the Data Explorer's upload
    const form = new FormData();
    form.append('name', 'US macro quarterly');
    form.append(
      'file',
      new Blob([
        readFileSync(
          path.join(
            import.meta.dirname,
            '../test/fixtures/data-sources/samples/datasets/us_macro_quarterly_1959q1_2009q3.csv',
          ),
        ),
      ]),
      'us_macro.csv',
    );
    const uploaded = await fetch(`${server.baseUrl}/api/agents/data-team/datasets/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mona.tokens.accessToken}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);

    llm.reset();
    llm.scriptPhase('model', 'theory', {
      json: {
        framework: 'Adapted framework.',
        assumptions: [],
        mechanisms: [],
        agents: [],
        markets: [],
        references: [1],
      },
    });
    llm.scriptPhase('model', 'model', {
      json: { explanation: 'Canonical equations kept.', ...asProposal(canonicalModel('RBC')) },
    });
    const page = await open();
    await page.getByRole('combobox', { name: 'Model type' }).click();
    await page.getByRole('option', { name: /^RBC \(/ }).click();
    await page.getByLabel('Topical focus').fill('US business cycles, 1959-2009');
    await page.getByLabel(/Target moments from a catalog dataset/).check();
    // nothing chosen yet: the screen says what is missing before it calls the server
    await page.getByRole('button', { name: 'Develop Model' }).click();
    await page.getByText('Choose the dataset for the target moments').waitFor();
    await page.getByRole('combobox', { name: 'Target dataset' }).click();
    await page.getByRole('option', { name: 'US macro quarterly' }).click();
    await page.getByRole('combobox', { name: 'Column' }).click();
    await page.getByRole('option', { name: 'realgdp', exact: true }).click();
    await page.getByRole('combobox', { name: 'Model variable' }).click();
    await page.getByRole('option', { name: /^y \(/ }).click();
    await expectAxeClean(page, 'model team target dataset');
    await page.getByRole('button', { name: 'Develop Model' }).click();
    for (const title of [
      'Checkpoint 1: Theoretical Framework Review',
      'Checkpoint 2: Mathematical Model Review',
    ]) {
      await checkpoint(page, title);
      await page.getByRole('button', { name: 'Approve & Continue' }).click();
    }
    await checkpoint(page, 'Checkpoint 3: Calibration Results Review');
    await page
      .getByText(/Dataset US macro quarterly: sample 1959Q1 to 2009Q3, 203 quarterly observations/)
      .waitFor();
    const mapping = page.getByRole('table', {
      name: 'Target dataset: columns and model variables',
    });
    expect(await mapping.getByRole('row').nth(1).textContent()).toBe(
      'realgdpylog, HP cycle (λ 1600)',
    );
    const targets = page.getByRole('table', { name: 'Model moments against targets' });
    expect(await targets.textContent()).toContain('Dataset "US macro quarterly": realgdp');
    await page.getByRole('button', { name: 'Reset' }).first().click();
    await page.getByRole('status', { name: 'Status: Idle' }).waitFor();
    await page.context().close();
  }, 240_000);

  it('completes a session with computed results for each of the ten model types', async () => {
    llm.reset();
    llm.scriptPhase('model', 'theory', {
      json: {
        framework: 'Adapted framework.',
        assumptions: [],
        mechanisms: [],
        agents: [],
        markets: [],
        references: [1],
      },
    });
    for (const type of MODEL_TYPES) {
      llm.script({
        agent: 'model',
        phase: 'model',
        match: `(type ${type})`,
        replies: [
          {
            json: { explanation: 'Canonical equations kept.', ...asProposal(canonicalModel(type)) },
          },
        ],
      });
    }
    const page = await open();
    for (const type of MODEL_TYPES) {
      await page.getByRole('combobox', { name: 'Model type' }).click();
      await page.getByRole('option', { name: new RegExp(`^${type} \\(`) }).click();
      await page.getByLabel('Simulation periods').fill('100');
      await page.getByLabel('Topical focus').fill(`A first look at the ${type} model`);
      await page.getByRole('button', { name: 'Develop Model' }).click();
      for (const title of [
        'Checkpoint 1: Theoretical Framework Review',
        'Checkpoint 2: Mathematical Model Review',
        'Checkpoint 3: Calibration Results Review',
      ]) {
        await checkpoint(page, title);
        if (title.startsWith('Checkpoint 3')) {
          // computed results on the screen: the parameter table and at least one chart
          await page.getByRole('table', { name: 'Calibrated parameters' }).waitFor();
          await page.getByRole('table', { name: 'Theoretical moments' }).waitFor();
          await page.locator('figure svg').nth(1).waitFor();
        }
        await page.getByRole('button', { name: 'Approve & Continue' }).click();
      }
      await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 90_000 });
      await page.getByText(/Saved 4 documents/).waitFor();
      await page.getByRole('button', { name: 'Reset' }).first().click();
      await page.getByRole('status', { name: 'Status: Idle' }).waitFor();
    }
    await page.context().close();
  }, 900_000);

  it('imports a Dynare .mod file as a custom model, and names the line of a file it refuses', async () => {
    const page = await open();
    await page.getByRole('combobox', { name: 'Model type' }).click();
    await page.getByRole('option', { name: 'Custom (.mod file)' }).click();
    // nothing chosen: the screen asks for the file before it calls the server
    await page.getByRole('button', { name: 'Develop Model' }).click();
    await page.getByText('Choose or paste a Dynare .mod file').waitFor();
    // a file the engine refuses: the server's answer names the line and the construct
    await page
      .getByLabel('Dynare .mod file', { exact: true })
      .fill(
        'var y;\nvarexo e;\nparameters rho;\nrho = 0.9;\nmodel;\ny = rho*y(-1) + e;\nend;\nestimated_params; rho, 0.5, 0, 1; end;\nstoch_simul;',
      );
    await page.getByRole('button', { name: 'Develop Model' }).click();
    await page
      .getByText(/Line 8: .*estimated_params/)
      .first()
      .waitFor();
    await expectAxeClean(page, 'model team custom model');

    await page
      .getByLabel('Dynare .mod file to import')
      .setInputFiles(
        path.join(import.meta.dirname, '../server/engines/models/testdata/example1.mod'),
      );
    await page.getByText('example1.mod', { exact: true }).waitFor();
    expect(await page.getByLabel('Dynare .mod file', { exact: true }).inputValue()).toContain(
      'var y, c, k, a, h, b;',
    );
    await page.getByRole('button', { name: 'Develop Model' }).click();
    await checkpoint(page, 'Checkpoint 1: Theoretical Framework Review');
    await page.getByText('Summary of your .mod file').waitFor();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await checkpoint(page, 'Checkpoint 2: Mathematical Model Review');
    await page.getByText('Your .mod file, checked by the engine').waitFor();
    await page.getByRole('heading', { name: 'Import of example1.mod' }).waitFor();
    await page.getByText('Nothing: the file has no statement after stoch_simul.').waitFor();
    await page.getByRole('button', { name: 'Approve & Continue' }).click();
    await checkpoint(page, 'Checkpoint 3: Calibration Results Review');
    const alpha = page
      .getByRole('table', { name: 'Calibrated parameters' })
      .getByRole('row')
      .filter({ has: page.getByText('alpha', { exact: true }) });
    expect(await alpha.textContent()).toContain("From the researcher's .mod file");
    await page.getByRole('figure', { name: /Response to a .* \(e\)/ }).waitFor();
    await page.getByRole('button', { name: 'Reset' }).first().click();
    await page.getByRole('status', { name: 'Status: Idle' }).waitFor();
    await page.context().close();
  }, 240_000);
});
