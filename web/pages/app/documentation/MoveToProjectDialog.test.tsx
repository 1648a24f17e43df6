import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentSummary } from '../../../../common/documents';
import { projectSchema, type Project } from '../../../../common/projects';
import { setAuth, setUser } from '../../../api/session';
import { mockFetch, renderWithApp } from '../../../testing/renderApp';
import { MoveToProjectDialog } from './MoveToProjectDialog';

const DOC = '66666666-6666-4666-8666-666666666666';
const MINE = '33333333-3333-4333-8333-333333333333';
const READ_ONLY = '44444444-4444-4444-8444-444444444444';

const document: DocumentSummary = {
  id: DOC,
  name: 'Review.md',
  category: 'literature_review',
  created: '2026-01-01T00:00:00.000Z',
  size: 100,
  format: 'md',
  validated: false,
  reproducible: false,
  project: null,
  projectId: null,
  sessionId: null,
  origin: 'upload',
  ownerId: 'u1',
  canEdit: true,
};

function project(id: string, title: string, canEdit: boolean): Project {
  return projectSchema.parse({
    id,
    title,
    description: '',
    status: 'active',
    researchArea: 'Labor',
    researchQuestions: [],
    hypotheses: [],
    dateCreated: document.created,
    dateUpdated: document.created,
    authors: [],
    collaborators: [],
    datasets: [],
    models: [],
    publications: [],
    workflowStage: 'ideation',
    agentConfigurations: [],
    metrics: { progress: 0, agentTasksCompleted: 0, agentTasksTotal: 0 },
    isFavorite: false,
    ownerId: 'u1',
    ownerName: 'Ada',
    access: canEdit ? 'owner' : 'viewer',
    canEdit,
    canDelete: canEdit,
  });
}

const projects = [project(MINE, 'Minimum wages', true), project(READ_ONLY, 'Not mine', false)];

function server() {
  return mockFetch({
    'GET /api/projects': () => ({
      json: {
        success: true,
        data: { projects, total: projects.length, limit: 200, offset: 0, researchAreas: [] },
      },
    }),
    [`PUT /api/documents/${DOC}`]: (body) => ({
      json: {
        success: true,
        data: { document: { ...document, ...(body as object), content: '' } },
      },
    }),
  });
}

const moves = (calls: ReturnType<typeof server>['calls']) =>
  calls.filter((c) => c.key === `PUT /api/documents/${DOC}`).map((c) => c.body);

beforeEach(() => {
  localStorage.clear();
  setAuth({ accessToken: 'a', refreshToken: 'r' });
  setUser({ id: 'u1', role: 'researcher', displayName: 'Ada', email: 'ada@example.org' });
});
afterEach(cleanup);

describe('Move to project', () => {
  it('moves a document into a project the user may edit', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    const onMoved = vi.fn();
    renderWithApp(
      <MoveToProjectDialog document={document} onClose={() => undefined} onMoved={onMoved} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Move to project' });
    expect(within(dialog).getByRole('button', { name: 'Move' })).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('combobox', { name: 'Project' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['No project', 'Minimum wages']);
    await user.click(options[1]!);
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onMoved).toHaveBeenCalledWith('"Review.md" moved to Minimum wages'));
    expect(moves(calls)).toEqual([{ projectId: MINE }]);
  });

  it('moves a document out of its project with No project', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    const onMoved = vi.fn();
    renderWithApp(
      <MoveToProjectDialog
        document={{ ...document, projectId: MINE, project: 'Minimum wages' }}
        onClose={() => undefined}
        onMoved={onMoved}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Move to project' });
    expect(dialog.textContent).toContain('"Review.md" belongs to Minimum wages.');
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Project' }).textContent).toBe(
        'Minimum wages',
      ),
    );
    await user.click(within(dialog).getByRole('combobox', { name: 'Project' }));
    await user.click(
      within(await screen.findByRole('listbox')).getByRole('option', { name: 'No project' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(onMoved).toHaveBeenCalledWith('"Review.md" no longer belongs to a project'),
    );
    expect(moves(calls)).toEqual([{ projectId: null }]);
  });

  it('shows the server refusal in the dialog', async () => {
    mockFetch({
      'GET /api/projects': () => ({
        json: {
          success: true,
          data: { projects, total: 2, limit: 200, offset: 0, researchAreas: [] },
        },
      }),
      [`PUT /api/documents/${DOC}`]: () => ({
        status: 403,
        json: { success: false, error: 'Forbidden', message: 'You cannot edit that project' },
      }),
    });
    const user = userEvent.setup();
    renderWithApp(
      <MoveToProjectDialog
        document={document}
        onClose={() => undefined}
        onMoved={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Move to project' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Project' }));
    await user.click(
      within(await screen.findByRole('listbox')).getByRole('option', { name: 'Minimum wages' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'You cannot edit that project',
    );
  });
});
