import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { AgentTeamsReply } from '../../common/agents';
import { TeamsLauncher } from '../pages/app/overview/TeamsLauncher';
import { mockFetch, renderWithApp } from '../testing/renderApp';
import { TEAM_MANIFESTS } from '.';
import type { TeamManifest } from './manifest';
import { TeamGate } from './TeamGate';

afterEach(cleanup);

/** The server's team list with only `ids` registered (`unavailable` ones cannot run here). */
function teamsReply(ids: string[], unavailable: string[] = []): AgentTeamsReply {
  return {
    success: true,
    status: 'ok',
    queue: { state: 'up' },
    llm: { configured: false, provider: null, model: null, hint: 'No language model' },
    teams: ids.map((id) => ({
      id,
      name: id,
      label: id,
      stage: null,
      description: '',
      subscriptionType: `${id}-team`,
      available: !unavailable.includes(id),
      ...(unavailable.includes(id) ? { reason: `The ${id} engine is not installed here` } : {}),
      phases: [],
    })),
  };
}

const manifest = (id: string): TeamManifest => TEAM_MANIFESTS.find((m) => m.id === id)!;

describe('team readiness comes from the server', () => {
  it('the launcher marks registered teams ready and the others coming soon, linking each screen', async () => {
    mockFetch({ 'GET /api/agents/teams': () => ({ json: teamsReply(['literature']) }) });
    renderWithApp(<TeamsLauncher />);
    const literature = await screen.findByRole('link', { name: /Literature Review/ });
    await waitFor(() => expect(literature.textContent).toContain('ready'));
    expect(literature.getAttribute('href')).toBe('/app/literature-team');
    const data = screen.getByRole('link', { name: /^Data/ });
    expect(data.textContent).toContain('coming soon');
    expect(data.getAttribute('href')).toBe('/app/data-team');
    expect(screen.getByRole('link', { name: /Customized Workflow/ }).textContent).toContain(
      'ready',
    );
  });

  it("a team route shows the spec's coming soon when the server does not register the team", async () => {
    mockFetch({ 'GET /api/agents/teams': () => ({ json: teamsReply(['literature']) }) });
    renderWithApp(<TeamGate manifest={manifest('code')} />);
    expect(await screen.findByText('The Code team screen is coming soon.')).toBeTruthy();
  });

  it("a registered team that cannot run here shows the server's reason above its screen", async () => {
    mockFetch({ 'GET /api/agents/teams': () => ({ json: teamsReply(['model'], ['model']) }) });
    renderWithApp(<TeamGate manifest={manifest('model')} />);
    expect(await screen.findByText('The model engine is not installed here')).toBeTruthy();
  });

  it('says when the team list cannot be loaded', async () => {
    mockFetch({
      'GET /api/agents/teams': () => ({
        status: 500,
        json: { success: false, error: 'Internal', message: 'x' },
      }),
    });
    renderWithApp(<TeamGate manifest={manifest('data')} />);
    expect(await screen.findByText(/Could not load the teams/)).toBeTruthy();
  });
});
