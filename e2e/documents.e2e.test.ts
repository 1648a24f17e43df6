import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import {
  api,
  expectAxeClean,
  newAccount,
  openPage,
  screenshot,
  signIn,
  VIEWPORTS,
} from './support';
import { makePdf } from '../test/fixtures/literature-sources/pdf';

/**
 * Documentation (platform.md §2) against the real server: a helpful empty state (no samples), a
 * Markdown upload whose viewer renders KaTeX math, tabs and category chips that really filter,
 * search over name and project, download and delete; PDF upload (text extracted on the server,
 * shown in the viewer and found by search; a fake PDF refused); the table fits a 1440 px window;
 * axe-clean at phone and desktop width.
 */

const USER = {
  email: 'dora.docs@e2e.example',
  password: 'dora-password-1',
  displayName: 'Dora Docs',
};
const EULER = [
  '# Consumption Euler equation',
  '',
  'The household maximises',
  '',
  '$$',
  'U = E_0 \\sum_{t=0}^{\\infty} \\beta^t \\frac{c_t^{1-\\sigma}}{1-\\sigma}',
  '$$',
  '',
  'so that $c_t^{-\\sigma} = \\beta (1+r) E_t c_{t+1}^{-\\sigma}$.',
  '',
  '| Parameter | Value |',
  '|---|---|',
  '| $\\beta$ | 0.99 |',
].join('\n');

let server: RunningServer;
let browser: Browser;

interface DocRow {
  id: string;
  name: string;
  category: string;
}

async function token() {
  return (await signIn(server, USER.email, USER.password)).tokens.accessToken;
}

async function documents(): Promise<DocRow[]> {
  const r = await api<{ data: { documents: DocRow[] } }>(server, 'GET', '/api/documents', {
    token: await token(),
  });
  return r.body.data.documents;
}

async function open(path: string, width = 1440, height = 900): Promise<Page> {
  const session = await signIn(server, USER.email, USER.password);
  return openPage(browser, server, session, path, { width, height });
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await newAccount(server, USER);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Documentation', () => {
  it('starts with a helpful empty state, uploads Markdown and renders its math', async () => {
    const page = await open('/app/documentation');
    await page.getByText('No documents yet').waitFor();
    expect(await page.getByTestId('documents-table').count()).toBe(0);
    await expectAxeClean(page, 'empty documentation');

    // The main Upload button opens the dialog; only accepted types can be sent.
    await page.getByRole('button', { name: 'Upload document' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload a document' });
    const upload = dialog.getByRole('button', { name: 'Upload' });
    expect(await upload.isDisabled()).toBe(true);
    await dialog.getByTestId('document-file-input').setInputFiles({
      name: 'setup.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('MZ'),
    });
    await dialog.getByText('setup.exe is not an accepted type').waitFor();
    expect(await upload.isDisabled()).toBe(true);
    await dialog.getByTestId('document-file-input').setInputFiles({
      name: 'euler-notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(EULER),
    });
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Model Documentation' }).click();
    await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
    await expectAxeClean(page, 'upload dialog');
    await upload.click();

    // The viewer opens on the new document with KaTeX-rendered math and the table.
    const viewer = page.getByRole('dialog', { name: 'euler-notes.md' });
    await viewer.waitFor();
    const content = viewer.getByTestId('document-content');
    await content.locator('.katex-display').first().waitFor();
    expect(await content.locator('.katex').count()).toBeGreaterThanOrEqual(3);
    // Rendered as math (KaTeX's MathML carries the TeX source), not shown as raw dollars.
    expect(await content.locator('annotation').first().textContent()).toContain('\\beta^t');
    expect(await content.textContent()).not.toContain('$$');
    await content.getByRole('heading', { name: 'Consumption Euler equation' }).waitFor();
    expect(await content.locator('table td').first().textContent()).toContain('β');
    await screenshot(page, 'documents-viewer');
    await expectAxeClean(page, 'document viewer');
    expect(page.url()).toContain('doc=');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });

    const [stored] = await documents();
    expect(stored).toMatchObject({ name: 'euler-notes.md', category: 'model_documentation' });
    await page.getByTestId('documents-table').getByText('euler-notes.md').waitFor();

    // Download hands over the file as uploaded.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download euler-notes.md' }).click();
    const file = await download;
    const path = await file.path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path, 'utf8')).toBe(EULER);
    await page.context().close();
  });

  it('filters by tab, category chip and search; deletes after confirming', async () => {
    const t = await token();
    const project = await api<{ data: { project: { id: string } } }>(
      server,
      'POST',
      '/api/projects',
      { token: t, body: { title: 'Trade and wages in Mexico', researchArea: 'Trade' } },
    );
    for (const [name, category] of [
      ['County wage data dictionary', 'data_dictionary'],
      ['Tariff pass-through report', 'research_report'],
      ['Replication guide', 'reproducibility_guide'],
    ]) {
      const r = await api(server, 'POST', '/api/documents', {
        token: t,
        body: {
          name,
          category,
          format: 'md',
          content: `# ${name}`,
          projectId: category === 'research_report' ? project.body.data.project.id : undefined,
        },
      });
      expect(r.status).toBe(201);
    }
    const page = await open('/app/documentation');
    const table = page.getByTestId('documents-table');
    const names = async () =>
      (await table.getByRole('button').allTextContents()).filter(
        (n) => !n.startsWith('Download') && !n.startsWith('Delete') && n.trim() !== '',
      );
    /** Waits until the table lists exactly these names (in any order). */
    const shown = async (expected: string[]) => {
      const want = JSON.stringify([...expected].sort());
      for (let i = 0; i < 100; i++) {
        if (JSON.stringify((await names()).sort()) === want) return;
        await page.waitForTimeout(100);
      }
      expect((await names()).sort()).toEqual([...expected].sort());
    };
    await table.getByText('Tariff pass-through report').waitFor();
    expect((await names()).sort()).toEqual(
      [
        'County wage data dictionary',
        'Replication guide',
        'Tariff pass-through report',
        'euler-notes.md',
      ].sort(),
    );

    // A chip filters the list.
    await page.getByRole('button', { name: /^Research Reports \(1\)/ }).click();
    await shown(['Tariff pass-through report']);
    await page.getByRole('button', { name: /^All Documents/ }).click();
    await table.getByText('euler-notes.md').waitFor();

    // Tabs group categories: Models & Code holds model docs and the reproducibility guide.
    await page.getByRole('tab', { name: 'Models & Code' }).click();
    await shown(['Replication guide', 'euler-notes.md']);
    await page.getByRole('tab', { name: 'Data Dictionaries' }).click();
    await shown(['County wage data dictionary']);
    await page.getByRole('tab', { name: 'Documents' }).click();

    // Search covers the project title too.
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('mexico');
    await shown(['Tariff pass-through report']);
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('no such words');
    await page.getByText('No documents in this view match "no such words".').waitFor();
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('');
    await table.getByText('euler-notes.md').waitFor();
    await screenshot(page, 'documents');
    await expectAxeClean(page, 'documents list');

    // Delete asks first.
    await page.getByRole('button', { name: 'Delete Replication guide' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete document' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.waitForFunction(
      () =>
        !document
          .querySelector('[data-testid="documents-table"]')
          ?.textContent?.includes('Replication guide'),
    );
    expect((await documents()).map((d) => d.name)).not.toContain('Replication guide');
    await page.context().close();
  });

  it('works on a phone: list, viewer, axe', async () => {
    const phone = VIEWPORTS[0];
    const page = await open('/app/documentation', phone.width, phone.height);
    const list = page.getByTestId('documents-table');
    await list.getByText('euler-notes.md').waitFor();
    await expectAxeClean(page, 'documentation (phone)');
    await screenshot(page, 'documents');
    await list.getByRole('button', { name: 'euler-notes.md', exact: true }).click();
    const viewer = page.getByRole('dialog', { name: 'euler-notes.md' });
    await viewer.getByTestId('document-content').locator('.katex').first().waitFor();
    await screenshot(page, 'documents-viewer');
    await expectAxeClean(page, 'document viewer (phone)');
    await page.context().close();
  });

  it('fits the table into 1200 and 1440 px windows: every column and action visible', async () => {
    const t = await token();
    const project = await api<{ data: { project: { id: string } } }>(
      server,
      'POST',
      '/api/projects',
      {
        token: t,
        body: {
          title: 'Heterogeneous agent models of household consumption and wealth inequality',
          researchArea: 'Macroeconomics',
        },
      },
    );
    const r = await api(server, 'POST', '/api/documents', {
      token: t,
      body: {
        name: 'Validation report for the HANK calibration against the Survey of Consumer Finances 2019',
        category: 'validation_report',
        format: 'md',
        content: '# Validation',
        projectId: project.body.data.project.id,
        validated: true,
        reproducible: true,
      },
    });
    expect(r.status).toBe(201);
    // 1200 px is the narrowest window that gets the table (below it, one entry per document).
    for (const width of [1200, 1440]) {
      const page = await open('/app/documentation', width, 900);
      const table = page.getByTestId('documents-table');
      await table.getByText(/^Validation report for the HANK/).waitFor();
      // Nothing scrolls sideways: the table is as wide as its box.
      const overflow = await table.evaluate((el) => {
        const box = el.parentElement as HTMLElement;
        return { scroll: box.scrollWidth, client: box.clientWidth };
      });
      expect(overflow.scroll, `${width} px`).toBeLessThanOrEqual(overflow.client);
      // The Actions column and its last button are inside the window.
      const del = page.getByRole('button', { name: /^Delete Validation report for the HANK/ });
      const box = await del.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      const header = await table.getByRole('columnheader', { name: 'Actions' }).boundingBox();
      expect((header?.x ?? 0) + (header?.width ?? 0)).toBeLessThanOrEqual(width);
      await expectAxeClean(page, `documents table at ${width} px`);
      await screenshot(page, 'documents-table');
      await page.context().close();
    }
  });

  it('uploads a PDF: its text in the viewer and in search, the file on download', async () => {
    for (const vp of VIEWPORTS) {
      const word = vp.name === 'phone' ? 'monopsony' : 'oligopsony';
      const pdf = Buffer.from(
        makePdf({
          pages: [
            [`Labour market ${word} in rural counties`, 'Section 1: data from the QCEW.'],
            ['Section 2: the wage elasticity of labour supply.'],
          ],
        }),
      );
      const name = `${word}-paper.pdf`;
      const page = await open('/app/documentation', vp.width, vp.height);
      await page.getByRole('button', { name: 'Upload document' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Upload a document' });
      const input = dialog.getByTestId('document-file-input');

      // A file named .pdf that is not one: the server says so, in a sentence.
      await input.setInputFiles({
        name: 'renamed.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('# Notes, renamed to .pdf\n'),
      });
      await dialog.getByRole('button', { name: 'Upload' }).click();
      await dialog
        .getByText(/^This is not a PDF \(it does not begin with a PDF header\)/)
        .waitFor();

      await input.setInputFiles({ name, mimeType: 'application/pdf', buffer: pdf });
      await dialog.getByRole('button', { name: 'Upload' }).click();
      const viewer = page.getByRole('dialog', { name });
      const content = viewer.getByTestId('document-content');
      await content
        .getByText(`Labour market ${word} in rural counties`, { exact: false })
        .waitFor();
      expect(await content.textContent()).toContain('the wage elasticity of labour supply.');
      await viewer.getByTestId('pdf-text-note').waitFor();
      await expectAxeClean(page, `PDF viewer (${vp.name})`);
      await screenshot(page, 'documents-pdf-viewer');

      // The file comes back as uploaded.
      const download = page.waitForEvent('download');
      await viewer.getByRole('button', { name: 'Download' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(name);
      const { readFile } = await import('node:fs/promises');
      expect(Buffer.compare(await readFile(await file.path()), pdf)).toBe(0);
      await viewer.getByRole('button', { name: 'Close' }).click();
      await viewer.waitFor({ state: 'detached' });

      // Search finds it by a word in its text.
      await page.getByRole('searchbox', { name: 'Search documents' }).fill('elasticity of labour');
      const list = page.getByTestId('documents-table');
      await list.getByText(name).waitFor();
      await page.getByRole('searchbox', { name: 'Search documents' }).fill(word);
      await list.getByText(name).waitFor();
      await expectAxeClean(page, `documents searched by PDF text (${vp.name})`);
      await page.context().close();
    }
  });
});
