import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { AgentTeamsReply, TeamInfo } from '../../../../common/agents';
import { mockFetch, renderWithApp } from '../../../testing/renderApp';
import { TeamsLauncher, modelNeed } from './TeamsLauncher';

afterEach(cleanup);

const phase = (key: string, requiresModel: boolean, n: number) => ({
  phase: n,
  key,
  name: key,
  description: '',
  checkpoint: true,
  checkpointTitle: null,
  requiresModel,
});

const team = (id: string, models: boolean[]): TeamInfo => ({
  id,
  name: id,
  label: id,
  stage: null,
  description: '',
  subscriptionType: `${id}-team`,
  available: true,
  phases: models.map((m, i) => phase(`${id}-${i}`, m, i + 1)),
});

function reply(configured: boolean): AgentTeamsReply {
  return {
    success: true,
    status: 'ok',
    queue: { state: 'up' },
    llm: configured
      ? { configured: true, provider: 'openai', model: 'gpt-4.1' }
      : { configured: false, provider: null, model: null, hint: 'No language model' },
    teams: [
      team('ideation', [true, true]),
      team('code', [true, false, true]),
      team('data', [false, false]),
    ],
  };
}

describe('team cards without a model', () => {
  it('say "needs a model" with a link to Settings for teams whose steps call one', async () => {
    mockFetch({ 'GET /api/agents/teams': () => ({ json: reply(false) }) });
    renderWithApp(<TeamsLauncher />);
    const ideation = await screen.findByRole('link', { name: /Ideation/ });
    await waitFor(() => expect(ideation.textContent).toContain('needs a model'));
    expect(ideation.textContent).not.toContain('ready');
    const card = ideation.closest('.MuiCard-root') as HTMLElement;
    expect(within(card).getByText(/Its steps need a language model/)).toBeTruthy();
    const settings = within(card).getByRole('link', { name: 'Set up a model in Settings' });
    expect(settings.getAttribute('href')).toBe('/app/settings?section=api-keys');
    // The Code team's computed step still runs: the card says how many need the model.
    const code = screen.getByRole('link', { name: /^Code/ });
    expect(code.textContent).toContain('needs a model');
    const codeCard = code.closest('.MuiCard-root') as HTMLElement;
    expect(within(codeCard).getByText(/2 of its 3 steps need a language model/)).toBeTruthy();
    // A team that only computes stays ready.
    const data = screen.getByRole('link', { name: /^Data/ });
    expect(data.textContent).toContain('ready');
    expect(data.textContent).not.toContain('needs a model');
  });

  it('say ready once a model is configured', async () => {
    mockFetch({ 'GET /api/agents/teams': () => ({ json: reply(true) }) });
    renderWithApp(<TeamsLauncher />);
    const ideation = await screen.findByRole('link', { name: /Ideation/ });
    await waitFor(() => expect(ideation.textContent).toContain('ready'));
    expect(screen.queryByText(/needs a model/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Set up a model in Settings' })).toBeNull();
  });

  it('modelNeed leaves unavailable and model-free teams alone', () => {
    expect(modelNeed({ ...team('x', [true]), available: false }, false)).toBeNull();
    expect(modelNeed(team('x', [false]), false)).toBeNull();
    expect(modelNeed(team('x', [true]), true)).toBeNull();
    expect(modelNeed(team('x', [true, false]), false)).toEqual({
      modelSteps: 1,
      computedSteps: 1,
    });
  });
});
