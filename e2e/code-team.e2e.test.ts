import { existsSync, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { apiOk, VIEWPORTS } from './support';
import { approvedUser, expectAxeClean, openPage, type Session } from './web-pages.helpers';
import { hasSandbox, sandboxSkipReason } from '../test/requirements';

/**
 * The Code Team screen against the real server
 * and the scripted model server: the validation messages, code typed into the CodeMirror editor
 * and run in the sandbox with its figure shown under the output, a comprehensive session whose
 * tests fail until the model repairs the code, the review score as success or warning, the
 * Optimized and Tests tabs, a quick session, and the package download; at 390 and 1440 px: a
 * failed test run shows no Reproducible badge, an edited program's package holds the edit and
 * its figure, a language whose runtime is missing is marked before Run, and a project's dataset
 * and .mod file are chosen for the program, which reads them.
 */

const why = sandboxSkipReason;

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

async function open(
  size?: { width: number; height: number },
  path = '/app/code-team',
): Promise<Page> {
  const page = await openPage(browser, server.baseUrl, cody, path, size);
  await page.getByRole('heading', { level: 1, name: 'Code Team' }).waitFor();
  return page;
}

/** The files of a zip (central directory, stored or deflated entries). */
function unzip(buf: Buffer): Record<string, Buffer> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let pos = buf.readUInt32LE(eocd + 16);
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(pos + 10);
    const size = buf.readUInt32LE(pos + 20);
    const nameLen = buf.readUInt16LE(pos + 28);
    const skip = nameLen + buf.readUInt16LE(pos + 30) + buf.readUInt16LE(pos + 32);
    const name = buf.subarray(pos + 46, pos + 46 + nameLen).toString();
    const local = buf.readUInt32LE(pos + 42);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    files[name] = method === 8 ? inflateRawSync(data) : data;
    pos += 46 + skip;
  }
  return files;
}

/** Replaces the editor's whole content with `code`. */
async function typeCode(page: Page, code: string) {
  await page.locator('[data-testid="code-editor"] .cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
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
    await page.getByText('Attempt 1: the model changed the code, fixed').waitFor();
    await page.getByTestId('reproducible-badge').waitFor();
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

  it('never shows a review as good with correctness under 5 or high findings open, and a quick run without review', async () => {
    script([
      { criterion: 'correctness', severity: 'high', lines: [5], comment: 'Wrong mean.' },
      { criterion: 'correctness', severity: 'high', lines: [5], comment: 'No input check.' },
      { criterion: 'clarity', severity: 'high', lines: [1], comment: 'Unclear names.' },
    ]);
    const page = await open();
    await develop(page, 'Mean wage again.', 'Comprehensive');
    await tab(page, 'Review');
    const score = page.getByTestId('review-score');
    // correctness 4, clarity 7, efficiency 10, reproducibility 10: mean 7.75 -> 7.8, yet correctness
    // is under 5 and three high-severity findings are open: not green, and the rule is said.
    expect(await score.textContent()).toContain('Overall score: 7.8 / 10');
    expect(await score.getAttribute('class')).toMatch(/Warning/);
    expect(await score.textContent()).toContain(
      'Not shown as good: correctness is 4, under 5; 3 high-severity findings are open.',
    );
    expect(await score.textContent()).toContain(
      'The review shows as good only when the overall score is 7 or more, correctness is at least 5 and no high-severity finding is open.',
    );

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

    // Reloaded, the screen reopens the session with its own description and mode in the form.
    await page.reload();
    await page.getByRole('status', { name: 'Status: Completed' }).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.getByLabel('Code requirements').inputValue())
      .toBe('Mean wage, quickly.');
    expect(await page.getByRole('button', { name: 'Quick' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.context().close();
  });
});

/** Julia is offered, but this server has no Julia: the screen must say so before Run. */
const juliaMissing = !existsSync('/usr/bin/julia') && !existsSync('/usr/local/bin/julia');

describe.skipIf(!hasSandbox)(`Code Team signals and packages${why}`, () => {
  for (const viewport of VIEWPORTS) {
    const size = { width: viewport.width, height: viewport.height };

    it(`a failed test run shows no Reproducible badge (${viewport.width} px)`, async () => {
      llm.reset();
      llm.scriptPhase('code', 'generation', {
        json: { code: 'def f():\n    return 1\n\n\nprint(f())\n', explanation: 'Returns one.' },
      });
      llm.scriptPhase('code', 'tests', {
        json: { test_code: 'def test_f():\n    from main import f\n    assert f() == 2\n' },
      });
      llm.script({
        agent: 'code',
        phase: 'tests',
        match: /tests failed when run/,
        replies: [{ json: { code: null, test_code: null, explanation: 'No idea.' } }],
      });
      const page = await open(size);
      await develop(page, 'Return two.', 'Quick');
      await tab(page, 'Tests');
      const status = page.getByTestId('test-status');
      await status.waitFor();
      expect(await status.textContent()).toContain(
        "Tests failed in the sandbox. 0 passed, 1 failed. 1 test of 1 failed or raised an error (pytest's exit status 1)",
      );
      const notReproducible = page.getByTestId('not-reproducible');
      await notReproducible.waitFor();
      expect(await notReproducible.textContent()).toContain(
        "The package's tests failed in the sandbox",
      );
      expect(await page.getByTestId('reproducible-badge').count()).toBe(0);
      await page.getByText('Attempt 1: the model changed nothing, still failing').waitFor();
      expect(await page.getByText(/the none/).count()).toBe(0);
      await tab(page, 'Code Editor');
      expect(await page.getByTestId('reproducible-badge').count()).toBe(0);
      await page.getByTestId('not-reproducible').waitFor();
      await expectAxeClean(page, `code team failed tests ${viewport.width}`);
      await page.context().close();
    });

    it(`an edited program's package holds the edit and its figure (${viewport.width} px)`, async () => {
      llm.reset();
      llm.scriptPhase('code', 'generation', {
        json: { code: 'print("generated")\n', explanation: 'Prints.' },
      });
      llm.scriptPhase('code', 'tests', { json: { test_code: 'def test_x():\n    assert True\n' } });
      const page = await open(size);
      await develop(page, 'Print something.', 'Quick');
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="code-editor"] .cm-content')?.textContent ===
          'print("generated")',
      );
      const edited =
        'import matplotlib.pyplot as plt\nplt.plot([3, 1, 2])\nplt.savefig("edited.png")\nprint("edited run")\n';
      await typeCode(page, edited);
      await page.getByRole('button', { name: 'Execute Code' }).click();
      const result = page.getByTestId('execution-result');
      await result.waitFor({ timeout: 30_000 });
      await result.getByRole('img', { name: 'Figure edited.png written by the code' }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download Package' }).click(),
      ]);
      expect(await download.failure()).toBeNull();
      const files = unzip(readFileSync((await download.path())!));
      expect(files['main.py']!.toString()).toBe(edited);
      expect(files['session/main.py']!.toString()).toBe('print("generated")\n');
      expect(files['results/output.txt']!.toString()).toContain('edited run');
      expect(files['results/edited.png']!.subarray(1, 4).toString()).toBe('PNG');
      expect(files['README.md']!.toString()).toContain(
        '`main.py` exactly as it is in this package',
      );
      await page.context().close();
    });

    it.skipIf(!juliaMissing)(
      `marks a language whose runtime is missing before Run (${viewport.width} px)` +
        (juliaMissing
          ? ''
          : ' (skipped: Julia, the one runtime CI does not install, is installed here)'),
      async () => {
        const page = await open(size);
        await page.getByRole('combobox', { name: 'Language' }).click();
        const julia = page.getByRole('option', { name: 'Julia (not installed on this server)' });
        await julia.waitFor();
        await julia.click();
        await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
        expect(await page.getByTestId('start-runtime-missing').textContent()).toMatch(
          /Julia is not installed/,
        );
        expect(await page.getByTestId('runtime-missing').textContent()).toMatch(
          /Execute Code is off for Julia/,
        );
        expect(await page.getByRole('button', { name: 'Execute Code' }).isDisabled()).toBe(true);
        await expectAxeClean(page, `code team missing runtime ${viewport.width}`);
        await page.context().close();
      },
    );

    it(`gives the program the project's dataset and .mod file (${viewport.width} px)`, async () => {
      const created = await apiOk<{ data: { project: { id: string } } }>(
        server,
        'POST',
        '/api/projects',
        {
          token: cody.tokens.accessToken,
          body: { title: `Wages ${viewport.width}`, researchArea: 'Labour' },
        },
      );
      const projectId = created.data.project.id;
      const form = new FormData();
      form.set('name', 'Wages');
      form.set('file', new Blob(['year,wage\n2000,10\n2001,20\n2002,30\n']), 'wages.csv');
      const upload = await fetch(`${server.baseUrl}/api/agents/data-team/datasets/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cody.tokens.accessToken}` },
        body: form,
      });
      expect(upload.status).toBe(201);
      const datasetId = ((await upload.json()) as { data: { dataset: { id: string } } }).data
        .dataset.id;
      await apiOk(server, 'PUT', `/api/projects/${projectId}`, {
        token: cody.tokens.accessToken,
        body: { datasets: [datasetId] },
      });
      await apiOk(server, 'POST', '/api/documents', {
        token: cody.tokens.accessToken,
        body: {
          name: 'econagents_rbc.mod',
          category: 'model_documentation',
          format: 'txt',
          content: '// RBC\nvar y c k;\n',
          projectId,
        },
      });
      llm.reset();
      llm.scriptPhase('code', 'generation', {
        json: {
          code: 'import csv\nrows = list(csv.DictReader(open("data/wages.csv")))\nprint("rows:", len(rows))\nprint(open("data/econagents_rbc.mod").readline().strip())\n',
          explanation: 'Reads the project files.',
        },
      });
      llm.scriptPhase('code', 'tests', { json: { test_code: 'def test_x():\n    assert True\n' } });
      const page = await open(size, `/app/code-team?projectId=${projectId}`);
      const files = page.getByRole('group', { name: 'Project files for the program' });
      await files.getByRole('checkbox', { name: /Wages/ }).check();
      await files.getByRole('checkbox', { name: /econagents_rbc\.mod/ }).check();
      await develop(page, 'Count the rows of the wages.', 'Quick');
      await page.getByRole('button', { name: 'Execute Code' }).click();
      const output = page.getByTestId('execution-output');
      await output.waitFor({ timeout: 30_000 });
      expect(await output.textContent()).toBe('rows: 3\n// RBC\n');
      await page
        .getByText('Read-only input files: data/wages.csv, data/econagents_rbc.mod')
        .waitFor();
      const prompt = llm.requestsFor('code', 'generation')[0]!.prompt;
      expect(prompt).toContain('data/wages.csv');
      expect(prompt).toContain('columns: year, wage');
      await page.context().close();
    });
  }
});
