import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { approvedUser, expectAxeClean, openPage, type Session } from './web-pages.helpers';

/**
 * The Code Team screen against the real server
 * and the scripted model server: the validation messages, code typed into the CodeMirror editor
 * and run in the sandbox with its figure shown under the output, a comprehensive session whose
 * tests fail until the model repairs the code, the review score as success or warning, the
 * Optimized and Tests tabs, a quick session, and the package download.
 */

const hasSandbox = existsSync('/usr/bin/bwrap') && existsSync('/usr/bin/python3');
const why = hasSandbox ? '' : ' (skipped: needs bubblewrap and /usr/bin/python3)';

const USER = {
  email: 'cody.code@e2e.example',
  password: 'cody-password-1',
  displayName: 'Cody Code',
};

const MAIN = `import numpy as np


def mean_wage(wages):
    return float(np.mean(wages))


if __name__ == "__main__":
    print("mean wage:", mean_wage([10.0, 20.0, 30.0]))
`;
const OPTIMIZED_WRONG = `def mean_wage(wages):
    """The mean of the wages."""
    return sum(wages) / (len(wages) - 1)


if __name__ == "__main__":
    print("mean wage:", mean_wage([10.0, 20.0, 30.0]))
`;
const OPTIMIZED_FIXED = OPTIMIZED_WRONG.replace('(len(wages) - 1)', 'len(wages)');
const TESTS = `import pytest
from main import mean_wage


def test_mean_of_three():
    assert mean_wage([10.0, 20.0, 30.0]) == pytest.approx(20.0)


def test_single_value():
    assert mean_wage([5.0]) == pytest.approx(5.0)
`;

let server: RunningServer;
let llm: ScriptedLlmServer;
let browser: Browser;
let cody: Session;

function script(findings: unknown[]) {
  llm.reset();
  llm.scriptPhase('code', 'generation', { json: { code: MAIN, explanation: 'Mean wage.' } });
  llm.scriptPhase('code', 'review', { json: { summary: 'Reviewed.', findings } });
  llm.scriptPhase('code', 'optimization', {
    json: { optimized_code: OPTIMIZED_WRONG, changes: ['Dropped numpy'] },
  });
  llm.scriptPhase('code', 'tests', { json: { test_code: TESTS } });
  llm.script({
    agent: 'code',
    phase: 'tests',
    match: /tests failed when run/,
    replies: [{ json: { code: OPTIMIZED_FIXED, test_code: null, explanation: 'Divide by n.' } }],
  });
}

async function open(): Promise<Page> {
  const page = await openPage(browser, server.baseUrl, cody, '/app/code-team');
  await page.getByRole('heading', { level: 1, name: 'Code Team' }).waitFor();
  return page;
}

async function develop(page: Page, requirements: string, mode: 'Quick' | 'Comprehensive') {
  await page.getByRole('button', { name: mode }).click();
  await page.getByLabel('Code requirements').fill(requirements);
  await page.getByRole('button', { name: 'Develop Code' }).click();
  await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 90_000 });
}

function tab(page: Page, name: string) {
  return page.getByRole('tab', { name }).click();
}

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
  cody = await approvedUser(server, USER);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
});

describe('Code Team screen', () => {
  it('says what is missing before it calls the server, and is axe-clean', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Develop Code' }).click();
    await page.getByText('Please enter code requirements').waitFor();
    await page.getByRole('button', { name: 'Execute Code' }).click();
    await page.getByText('No code to execute').waitFor();
    for (const name of ['Code Editor', 'Review', 'Optimized', 'Tests']) {
      expect(await page.getByRole('tab', { name }).count()).toBe(1);
    }
    await expectAxeClean(page, 'code team screen');
    await page.context().close();
  });
});

describe.skipIf(!hasSandbox)(`Code Team screen with the sandbox${why}`, () => {
  it('runs code typed into the editor and shows its output and figure', async () => {
    const page = await open();
    await page.locator('[data-testid="code-editor"] .cm-content').click();
    await page.keyboard.insertText(
      'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.savefig("line.png")\nprint("hello from the sandbox")\n',
    );
    await page.getByRole('button', { name: 'Execute Code' }).click();
    const result = page.getByTestId('execution-result');
    await result.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('execution-output').textContent()).toBe(
      'hello from the sandbox\n',
    );
    const figure = result.getByRole('img', { name: 'Figure line.png written by the code' });
    await figure.waitFor();
    expect(await figure.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await expectAxeClean(page, 'code team execution result');
    await page.context().close();
  });

  it('develops code comprehensively: repair after failing tests, review score, tabs, package download', async () => {
    script([
      { criterion: 'clarity', severity: 'medium', lines: [4], comment: 'No docstring.' },
      { criterion: 'efficiency', severity: 'low', lines: [1], comment: 'numpy for a mean.' },
    ]);
    const page = await open();
    await develop(page, 'A function computing the mean wage.', 'Comprehensive');

    // The editor holds the tested (repaired) code.
    await page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="code-editor"] .cm-content')?.textContent === expected,
      OPTIMIZED_FIXED.replace(/\n/g, ''),
    );

    await tab(page, 'Review');
    const score = page.getByTestId('review-score');
    await score.waitFor();
    expect(await score.textContent()).toContain('Overall score: 9.5 / 10');
    expect(await score.getAttribute('class')).toMatch(/Success/);
    await page.getByText('No docstring.').waitFor();

    await tab(page, 'Optimized');
    await page.getByText('Dropped numpy').waitFor();
    await page.getByRole('textbox', { name: 'Optimized code' }).waitFor();

    await tab(page, 'Tests');
    const tests = page.getByTestId('test-status');
    await tests.waitFor();
    expect(await tests.textContent()).toContain('Tests passed in the sandbox. 2 passed, 0 failed.');
    await page.getByText('Attempt 1: changed the code, fixed').waitFor();
    await expectAxeClean(page, 'code team tests tab');

    await tab(page, 'Code Editor');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Package' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^code-package-python-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(await download.failure()).toBeNull();

    await tab(page, 'Console Logs');
    await page.getByText(/Repair attempt 1: the tests now pass/).waitFor();
    await page.context().close();
  });

  it('shows a review score under 7 as a warning, and a quick run without review', async () => {
    script([
      { criterion: 'correctness', severity: 'high', lines: [5], comment: 'Wrong mean.' },
      { criterion: 'correctness', severity: 'high', lines: [5], comment: 'No input check.' },
      { criterion: 'clarity', severity: 'high', lines: [1], comment: 'Unclear names.' },
    ]);
    const page = await open();
    await develop(page, 'Mean wage again.', 'Comprehensive');
    await tab(page, 'Review');
    const score = page.getByTestId('review-score');
    // correctness 4, clarity 7, efficiency 10, reproducibility 10: mean 7.75 -> 7.8.
    expect(await score.textContent()).toContain('Overall score: 7.8 / 10');
    expect(await score.getAttribute('class')).toMatch(/Success/);

    script([
      { criterion: 'correctness', severity: 'high', lines: [5], comment: 'Wrong mean.' },
      { criterion: 'correctness', severity: 'high', lines: [5], comment: 'No input check.' },
      { criterion: 'correctness', severity: 'high', lines: [5], comment: 'Divides by zero.' },
      { criterion: 'clarity', severity: 'high', lines: [1], comment: 'Unclear names.' },
      { criterion: 'reproducibility', severity: 'high', lines: [1], comment: 'No seed.' },
    ]);
    await page.getByRole('button', { name: 'Reset' }).click();
    await develop(page, 'Mean wage once more.', 'Comprehensive');
    await tab(page, 'Review');
    // correctness 1, clarity 7, efficiency 10, reproducibility 7: mean 6.25 -> 6.3.
    expect(await score.textContent()).toContain('Overall score: 6.3 / 10');
    expect(await score.getAttribute('class')).toMatch(/Warning/);

    script([]);
    await page.getByRole('button', { name: 'Reset' }).click();
    await develop(page, 'Mean wage, quickly.', 'Quick');
    await tab(page, 'Review');
    await page.getByText('Code Review is not part of a quick run.').waitFor();
    await tab(page, 'Tests');
    expect(await page.getByTestId('test-status').textContent()).toContain('Tests passed');
    await page.context().close();
  });
});
