import { useEffect } from 'react';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../../common/projects';
import { setAuth, setUser } from '../../api/session';
import { mockFetch, renderWithApp } from '../../testing/renderApp';
import { CheckpointPanel } from './CheckpointPanel';
import { makeSession } from './testing/fakeRuntime';
import { TeamScopeProvider, useTeamScope, type StartChoice, type TeamScope } from './teamScope';
import { TeamScreenLayout } from './TeamScreenLayout';

/** The team screens the frame names and links (the router gives the manifests). */
const TEAMS = [
  { id: 'literature', route: 'literature-team', name: 'Literature Review' },
  { id: 'data', route: 'data-team', name: 'Data' },
];

const ME = '11111111-1111-4111-8111-111111111111';
const SOMEONE = '22222222-2222-4222-8222-222222222222';
const MINE = '33333333-3333-4333-8333-333333333333';
const SHARED = '44444444-4444-4444-8444-444444444444';
const ALSO_MINE = '55555555-5555-4555-8555-555555555555';

function project(id: string, title: string, canEdit: boolean): Project {
  const now = new Date().toISOString();
  return {
    id,
    title,
    description: '',
    status: 'active',
    researchArea: 'Labor',
    researchQuestions: [],
    hypotheses: [],
    dateCreated: now,
    dateUpdated: now,
    authors: [],
    collaborators: [],
    datasets: [],
    models: [],
    publications: [],
    workflowStage: 'ideation',
    agentConfigurations: [],
    metrics: { progress: 0, agentTasksCompleted: 0, agentTasksTotal: 0 },
    isFavorite: false,
    ownerId: canEdit ? ME : SOMEONE,
    ownerName: canEdit ? 'Me' : 'Someone',
    access: canEdit ? 'owner' : 'viewer',
    canEdit,
    canDelete: canEdit,
  };
}

const projects = [
  project(MINE, 'Minimum wages', true),
  project(SHARED, 'Shared with me to read', false),
  project(ALSO_MINE, 'Trade and tariffs', true),
];

function server(openSessions: unknown[] = []) {
  return mockFetch({
    'GET /api/projects': () => ({
      json: {
        success: true,
        data: { projects, total: projects.length, limit: 200, offset: 0, researchAreas: [] },
      },
    }),
    'GET /api/agents/sessions': () => ({
      json: {
        success: true,
        sessions: openSessions,
        total: openSessions.length,
        limit: 20,
        offset: 0,
      },
    }),
  });
}

let scope: TeamScope | undefined;
let search = '';
function Inside({ children }: { children?: React.ReactNode }) {
  scope = useTeamScope();
  search = useLocation().search;
  return <>{children}</>;
}

function renderFrame(path: string, children?: React.ReactNode) {
  return renderWithApp(
    <TeamScopeProvider teamId="literature" teams={TEAMS}>
      <TeamScreenLayout title="Literature Review Team" funFacts={false}>
        <Inside>{children}</Inside>
      </TeamScreenLayout>
    </TeamScopeProvider>,
    { path, pattern: '/app/literature-team' },
  );
}

beforeEach(() => {
  localStorage.clear();
  setAuth({ accessToken: 'acc', refreshToken: 'ref' });
  setUser({ id: ME, role: 'researcher', displayName: 'Me', email: 'me@example.org' });
});
afterEach(() => {
  cleanup();
  scope = undefined;
});

describe('the project selector of a team screen', () => {
  it('offers the projects the user may add to and No project, and starts from ?projectId=', async () => {
    server();
    const user = userEvent.setup();
    renderFrame(`/app/literature-team?projectId=${MINE}`);
    const select = await screen.findByRole('combobox', { name: 'Project' });
    await waitFor(() => expect(select.textContent).toBe('Minimum wages'));
    expect(screen.getByText(/What the team saves goes into this project/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the project' }).getAttribute('href')).toBe(
      `/app/projects/${MINE}`,
    );

    await user.click(select);
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'No project',
      'Minimum wages',
      'Trade and tariffs',
    ]);
    await user.click(options[2]!);
    expect(new URLSearchParams(search).get('projectId')).toBe(ALSO_MINE);

    await user.click(screen.getByRole('combobox', { name: 'Project' }));
    await user.click(
      within(screen.getByRole('listbox')).getByRole('option', { name: 'No project' }),
    );
    expect(new URLSearchParams(search).has('projectId')).toBe(false);
    expect(screen.getByText(/stays in your own space/)).toBeTruthy();
  });

  it('lists a project the user may only read when the address names it, and says so', async () => {
    server();
    renderFrame(`/app/literature-team?projectId=${SHARED}`);
    const select = await screen.findByRole('combobox', { name: 'Project' });
    await waitFor(() => expect(select.textContent).toBe('Shared with me to read (read only)'));
    expect(screen.getByText(/You can read this project but not add to it/)).toBeTruthy();
  });

  it('is fixed while the shown session runs or waits', async () => {
    server();
    renderFrame(`/app/literature-team?projectId=${MINE}`);
    const select = await screen.findByRole('combobox', { name: 'Project' });
    await waitFor(() => expect(select.textContent).toBe('Minimum wages'));
    act(() =>
      scope!.show({
        sessionId: makeSession().sessionId,
        status: 'waiting_for_input',
        checkpoint: 1,
      }),
    );
    expect(select.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('The session shown stays in the project it started in.')).toBeTruthy();
  });
});

describe('the frame around a team screen', () => {
  it("offers the user's open session of the team when the screen shows none", async () => {
    const waiting = makeSession({ ownerId: ME, status: 'waiting_for_input', checkpoint: 2 });
    server([waiting]);
    renderFrame('/app/literature-team');
    const link = await screen.findByRole('link', { name: 'Literature Review' });
    expect(link.getAttribute('href')).toBe(`/app/literature-team?sessionId=${waiting.sessionId}`);
    expect(link.parentElement?.textContent).toContain('Waiting for Input at checkpoint 2');
  });

  it('asks before a start that would leave an open session behind, and answers with the choice', async () => {
    server();
    const user = userEvent.setup();
    renderFrame('/app/literature-team');
    await screen.findByRole('combobox', { name: 'Project' });
    let choice: Promise<StartChoice> | undefined;
    act(() => {
      choice = scope!.ask({
        shown: true,
        session: {
          sessionId: makeSession().sessionId,
          teamId: 'literature',
          status: 'waiting_for_input',
          checkpoint: 1,
        },
      });
    });
    const dialog = await screen.findByRole('dialog', {
      name: 'A Literature Review session is still open',
    });
    expect(dialog.textContent).toContain('waiting for input at checkpoint 1');
    await user.click(within(dialog).getByRole('button', { name: 'Start another' }));
    await expect(choice).resolves.toBe('start');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('names the open sessions, with links, after a start refused at the limit', async () => {
    server();
    renderFrame('/app/literature-team');
    await screen.findByRole('combobox', { name: 'Project' });
    const data = makeSession({ teamId: 'data', status: 'processing', phaseName: 'Data Loading' });
    act(() =>
      scope!.showOpenSessions([
        {
          sessionId: data.sessionId,
          teamId: 'data',
          status: 'processing',
          checkpoint: null,
          phaseName: 'Data Loading',
        },
      ]),
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('You have reached the limit of open sessions');
    const link = within(alert).getByRole('link', { name: 'Data' });
    expect(link.getAttribute('href')).toBe(`/app/data-team?sessionId=${data.sessionId}`);
    expect(alert.textContent).toContain('Processing (Data Loading)');
  });
});

describe('a checkpoint of a session someone else started', () => {
  function Panel() {
    return (
      <CheckpointPanel
        title="Checkpoint 1: Literature Search Review"
        onSubmitFeedback={() => true}
        onApprove={() => true}
        onReset={() => undefined}
      />
    );
  }
  function Shown({ ownerId, projectId = null }: { ownerId: string; projectId?: string | null }) {
    const s = useTeamScope();
    const show = s?.show;
    useEffect(() => {
      show?.({
        sessionId: makeSession().sessionId,
        status: 'waiting_for_input',
        checkpoint: 1,
        ownerId,
        projectId,
      });
    }, [show, ownerId, projectId]);
    return <Panel />;
  }

  it('shows a viewer what is reviewed but no way to answer, and says why', async () => {
    server();
    renderFrame('/app/literature-team', <Shown ownerId={SOMEONE} projectId={SHARED} />);
    await screen.findByRole('heading', { name: 'Checkpoint 1: Literature Search Review' });
    expect(
      await screen.findByText(/only the researcher who started it and the project's editors/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Your feedback' })).toBeNull();
  });

  it("keeps the answer for an editor of the session's project", async () => {
    server();
    renderFrame('/app/literature-team', <Shown ownerId={SOMEONE} projectId={MINE} />);
    await screen.findByRole('heading', { name: 'Checkpoint 1: Literature Search Review' });
    expect(await screen.findByRole('button', { name: /Approve/ })).toBeTruthy();
  });

  it('keeps the answer for the one who started it', async () => {
    server();
    renderFrame('/app/literature-team', <Shown ownerId={ME} />);
    await screen.findByRole('heading', { name: 'Checkpoint 1: Literature Search Review' });
    expect(screen.getByRole('button', { name: /Approve/ })).toBeTruthy();
  });
});
