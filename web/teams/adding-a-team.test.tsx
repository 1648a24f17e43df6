import { lazy, type ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import BiotechOutlined from '@mui/icons-material/BiotechOutlined';
import type { AgentTeamsReply, TeamInfo } from '../../common/agents';
import type { Project } from '../../common/projects';
import { setAuth, setUser } from '../api/session';
import AppShell from '../layouts/AppShell';
import AgentWorkflowPage from '../pages/app/AgentWorkflowPage';
import { TeamsLauncher } from '../pages/app/overview/TeamsLauncher';
import { mockFetch, renderWithApp } from '../testing/renderApp';
import { TEAM_MANIFESTS } from '.';
import type { TeamManifest } from './manifest';
import { TeamManifestsContext } from './useTeamManifests';

/**
 * A team added the way docs/architecture.md ("Adding a team") says, on the web side: its folder
 * with a manifest.ts and one line in web/teams/index.ts, nothing else. Here the list is a copy
 * with a throw-away manifest added, given to the pages as the app's team list; the launcher, the
 * navigation, the breadcrumbs and the workflow page must all show the team from its manifest
 * alone. (The server side: server/modules/system/adding-a-team.api.test.ts.)
 */
const surveyManifest: TeamManifest = {
  id: 'survey',
  route: 'survey-team',
  label: 'Survey',
  name: 'Survey Design',
  stage: 'validation',
  icon: BiotechOutlined,
  badge: 'Beta',
  description: 'Designs and checks survey instruments.',
  Screen: lazy(async () => ({ default: () => <p>Survey screen</p> })),
};
const withSurvey: readonly TeamManifest[] = [...TEAM_MANIFESTS, surveyManifest];

const withTeams = (element: ReactElement, teams = withSurvey) => (
  <TeamManifestsContext value={teams}>{element}</TeamManifestsContext>
);

function teamInfo(id: string, label: string): TeamInfo {
  return {
    id,
    name: `${label} Team`,
    label,
    stage: null,
    description: '',
    subscriptionType: `${id}-team`,
    available: true,
    phases: [],
  };
}

const teamsReply: AgentTeamsReply = {
  success: true,
  status: 'ok',
  queue: { state: 'up' },
  llm: { configured: false, provider: null, model: null },
  teams: [teamInfo('literature', 'Literature Review'), teamInfo('survey', 'Survey Design')],
};

const now = new Date().toISOString();
const project: Project = {
  id: 'p1',
  title: 'Trust in institutions',
  description: '',
  status: 'active',
  researchArea: 'Behavioral Economics',
  researchQuestions: [],
  hypotheses: [],
  dateCreated: now,
  dateUpdated: now,
  authors: [],
  collaborators: [],
  datasets: [],
  models: [],
  publications: [],
  workflowStage: 'data',
  agentConfigurations: [],
  metrics: { progress: 0, agentTasksCompleted: 0, agentTasksTotal: 0 },
  isFavorite: false,
  ownerId: 'u1',
  ownerName: 'Ada',
  access: 'owner',
  canEdit: true,
  canDelete: true,
};

function mockServer() {
  const emptyGroup = {
    key: '',
    executions: 0,
    byStatus: {},
    durationP50Ms: null,
    durationP95Ms: null,
    totalTokens: 0,
    costUsd: 0,
  };
  mockFetch({
    'GET /api/agents/teams': () => ({ json: teamsReply }),
    'GET /api/v2/agents': () => ({ json: { success: true, agents: [] } }),
    'GET /api/v2/agents/executions': () => ({
      json: { success: true, executions: [], total: 0, limit: 50, offset: 0 },
    }),
    'GET /api/v2/agents/metrics': () => ({
      json: {
        success: true,
        metrics: { scope: 'own', total: emptyGroup, byAgent: [], byTeam: [] },
      },
    }),
    'GET /api/projects': () => ({
      json: {
        success: true,
        data: { projects: [project], total: 1, limit: 100, offset: 0, researchAreas: [] },
      },
    }),
    'GET /api/projects/p1': () => ({ json: { success: true, data: { project } } }),
  });
}

beforeEach(() => {
  localStorage.clear();
  setAuth({ accessToken: 'acc', refreshToken: 'ref' });
  setUser({ id: 'u1', role: 'researcher', displayName: 'Ada', email: 'ada@example.org' });
  mockServer();
});
afterEach(cleanup);

describe('a team added to the manifest list', () => {
  it('gets a launcher card linking its screen, ready when the server registers it', async () => {
    renderWithApp(withTeams(<TeamsLauncher />));
    const card = await screen.findByRole('link', { name: /^Survey Design/ });
    expect(card.getAttribute('href')).toBe('/app/survey-team');
    expect(card.textContent).toContain('Designs and checks survey instruments.');
    await waitFor(() => expect(card.textContent).toContain('ready'));
  });

  it('is not shown where the list does not have it (the product list)', () => {
    renderWithApp(<TeamsLauncher />);
    expect(screen.queryByRole('link', { name: /^Survey Design/ })).toBeNull();
    expect(screen.getByRole('link', { name: /^Literature Review/ })).toBeTruthy();
  });

  it('gets a navigation item with its label and badge, and breadcrumbs on its screen', async () => {
    renderWithApp(withTeams(<AppShell />), { path: '/app/survey-team', pattern: '/app/*' });
    const nav = screen.getAllByRole('navigation', { name: 'Main navigation' })[0]!;
    const teams = within(nav).getByRole('list', { name: 'AI Research Teams' });
    const item = within(teams).getByRole('link', { name: /^Survey/ });
    expect(item.getAttribute('href')).toBe('/app/survey-team');
    expect(item.getAttribute('aria-current')).toBe('page');
    expect(within(item).getByText('Beta')).toBeTruthy();
    // After the product's teams, before the customized workflow.
    const labels = within(teams)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(labels.indexOf('SurveyBeta')).toBe(labels.length - 2);
    await waitFor(() => expect(document.title).toBe('Survey Team · EconAgents'));
  });

  it('gets a button on the workflow page and its research stage there', async () => {
    renderWithApp(withTeams(<AgentWorkflowPage />), { path: '/app/agent-workflow' });
    const links = await screen.findByRole('navigation', { name: 'Agent team screens' });
    expect(within(links).getByRole('link', { name: 'Survey Design' }).getAttribute('href')).toBe(
      '/app/survey-team',
    );
    cleanup();

    renderWithApp(withTeams(<AgentWorkflowPage />), {
      path: '/app/agent-workflow?tab=stages&project=p1',
    });
    const stages = await screen.findByRole('list', {
      name: 'Research stages of Trust in institutions',
    });
    const validation = stages.querySelector('[data-stage="validation"]') as HTMLElement;
    // Named as the server names the team; the stage and the screen from the manifest.
    expect(validation.textContent).toContain('No Survey Design Team session for this project yet');
    expect(
      within(validation)
        .getByRole('link', { name: /Open Survey Design Team/ })
        .getAttribute('href'),
    ).toBe('/app/survey-team');
    // A stage no team works in stays without a team.
    expect(stages.querySelector('[data-stage="proposal"]')!.textContent).toContain(
      'No agent team works in this stage',
    );
  });
});
