import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectRecord } from '../../../../common/research-record';
import type { Project } from '../../../../common/projects';
import { setAuth, setUser } from '../../../api/session';
import { mockFetch, renderWithApp } from '../../../testing/renderApp';
import { ResearchRecordSection } from './ResearchRecordSection';
import { RunTeamSection } from './RunTeamSection';

const PROJECT = '33333333-3333-4333-8333-333333333333';
const SESSION = '55555555-5555-4555-8555-555555555555';
const USER = '11111111-1111-4111-8111-111111111111';

const record: ProjectRecord = {
  projectId: PROJECT,
  workflowStage: 'literature',
  progress: 40,
  stagesReached: ['ideation', 'literature'],
  stagesCovered: ['ideation', 'literature', 'data', 'modeling', 'coding'],
  sessions: [
    {
      sessionId: SESSION,
      team: 'literature',
      teamLabel: 'Literature Review',
      status: 'completed',
      paused: false,
      phase: 4,
      totalPhases: 4,
      startedBy: { id: USER, name: 'Ada Lovelace' },
      createdAt: '2026-01-02T10:00:00.000Z',
      startedAt: '2026-01-02T10:00:00.000Z',
      completedAt: '2026-01-02T10:20:00.000Z',
      link: `/app/literature-team?sessionId=${SESSION}&projectId=${PROJECT}`,
      workflowId: null,
    },
  ],
  workflows: [],
  documents: [],
  datasets: [],
  researchQuestions: ['Do minimum wages reduce youth employment?'],
};

beforeEach(() => {
  localStorage.clear();
  setAuth({ accessToken: 'a', refreshToken: 'r' });
  setUser({ id: USER, role: 'researcher', displayName: 'Ada', email: 'ada@example.org' });
});
afterEach(cleanup);

describe('the research record on the project page', () => {
  it('shows the stage and progress the server computed and each session with who ran it and its link', async () => {
    mockFetch({
      [`GET /api/projects/${PROJECT}/record`]: () => ({ json: { success: true, record } }),
    });
    renderWithApp(<ResearchRecordSection projectId={PROJECT} />);
    const sessions = await screen.findByRole('list', { name: 'Sessions of this project' });
    const link = within(sessions).getByRole('link', { name: 'Literature Review' });
    expect(link.getAttribute('href')).toBe(record.sessions[0]!.link);
    expect(sessions.textContent).toContain('Completed');
    expect(sessions.textContent).toContain('Started by Ada Lovelace');
    expect(
      screen.getByRole('progressbar', { name: 'Research progress' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(screen.getByText('2 of 5 stages reached')).toBeTruthy();
    expect(screen.getByText('Literature Review (reached)')).toBeTruthy();
    expect(screen.getByText('Do minimum wages reduce youth employment?')).toBeTruthy();
    expect(screen.getByText('No customized workflow has run on this project.')).toBeTruthy();
  });
});

describe('Run a team', () => {
  const project = { id: PROJECT, canEdit: true } as Project;

  it('opens each team with the project selected, and the customized workflow on it', () => {
    renderWithApp(<RunTeamSection project={project} />);
    expect(screen.getByRole('link', { name: 'Run Literature Review' }).getAttribute('href')).toBe(
      `/app/literature-team?projectId=${PROJECT}`,
    );
    expect(screen.getByRole('link', { name: 'Run Code' }).getAttribute('href')).toBe(
      `/app/code-team?projectId=${PROJECT}`,
    );
    expect(
      screen.getByRole('link', { name: 'Build a Customized Workflow' }).getAttribute('href'),
    ).toBe(`/app/customized-workflow?projectId=${PROJECT}`);
  });

  it('tells a reader of the project why there is nothing to run', () => {
    renderWithApp(<RunTeamSection project={{ ...project, canEdit: false }} />);
    expect(screen.queryByRole('link', { name: /^Run / })).toBeNull();
    expect(screen.getByText(/only its owner and editors run teams in it/)).toBeTruthy();
  });
});
