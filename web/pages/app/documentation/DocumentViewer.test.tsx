import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { modelPassage } from '../../../../common/provenance';
import { mockFetch, renderWithApp } from '../../../testing/renderApp';
import { setAuth, setUser } from '../../../api/session';
import { DocumentViewer } from './DocumentViewer';

const ID = '0b6c1a52-1f0e-4c43-9a43-5d0f2b1e7a11';
const SESSION = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';

const document = {
  id: ID,
  name: 'Literature review',
  category: 'literature_review',
  created: '2026-03-01T10:00:00.000Z',
  size: 120,
  format: 'md',
  validated: false,
  reproducible: false,
  project: null,
  projectId: null,
  sessionId: SESSION,
  origin: 'session',
  ownerId: 'u1',
  canEdit: true,
  content: `# Review\n\nComputed trend table.\n\n${modelPassage('Synthesis', 'Wages rise [1].')}`,
};

const provenance = {
  sessionId: SESSION,
  team: 'literature',
  projectId: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  model: { provider: 'openai', id: 'gpt-test' },
  phases: [{ key: 'report', startedAt: '2026-03-01T09:59:00.000Z', completedAt: null }],
  inputs: [],
  records: [{ kind: 'work', id: 'W1', source: 'openalex', doi: '10.1234/x.1', title: 'Wages' }],
  computations: [],
  items: [
    { key: 'reference:W1', origin: 'retrieved', ref: 'W1' },
    { key: 'passage:synthesis', origin: 'model' },
  ],
};

beforeEach(() => {
  localStorage.clear();
  setAuth({ accessToken: 'acc', refreshToken: 'ref' });
  setUser({ id: 'u1', role: 'researcher', displayName: 'Ada', email: 'ada@example.org' });
});
afterEach(cleanup);

describe('DocumentViewer', () => {
  it('marks the passage the model wrote and shows the provenance on its tab', async () => {
    const { calls } = mockFetch({
      [`GET /api/documents/${ID}`]: () => ({ json: { success: true, data: { document } } }),
      [`GET /api/documents/${ID}/provenance`]: () => ({ json: { success: true, provenance } }),
    });
    renderWithApp(<DocumentViewer id={ID} onClose={() => {}} onDownload={() => {}} />);
    const passage = await screen.findByRole(
      'region',
      { name: 'Written by the model, not checked: Synthesis' },
      // The Markdown viewer is loaded lazily (KaTeX and its CSS), slow on a busy machine.
      { timeout: 20_000 },
    );
    expect(passage.textContent).toContain('Wages rise [1].');
    // The provenance is read only when its tab is opened.
    expect(calls.some((c) => c.key.endsWith('/provenance'))).toBe(false);

    fireEvent.click(screen.getByRole('tab', { name: 'Provenance' }));
    const panel = await screen.findByTestId('provenance-panel');
    expect(within(panel).getByText(/gpt-test \(openai\)/)).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'doi:10.1234/x.1' })).toBeTruthy();
    const row = within(panel).getByText('passage:synthesis').closest('tr')!;
    expect(within(row).getByText('Written by the model, not checked')).toBeTruthy();
    expect(screen.queryByTestId('document-content')).toBeNull();
  }, 30_000);

  it('says when the provenance cannot be read', async () => {
    mockFetch({
      [`GET /api/documents/${ID}`]: () => ({ json: { success: true, data: { document } } }),
      [`GET /api/documents/${ID}/provenance`]: () => ({
        status: 404,
        json: { success: false, error: 'Not Found', message: 'Document not found' },
      }),
    });
    renderWithApp(<DocumentViewer id={ID} onClose={() => {}} onDownload={() => {}} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Provenance' }));
    expect(await screen.findByText('Could not read where this document came from')).toBeTruthy();
  });
});
