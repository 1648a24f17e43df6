import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEAM_MANIFESTS } from '../../../teams';
import { installMatchMedia } from '../../../testing/renderApp';
import { ChainBuilder } from './ChainBuilder';

const PROJECT = '33333333-3333-4333-8333-333333333333';

afterEach(cleanup);

async function addStep(user: ReturnType<typeof userEvent.setup>, team: string) {
  await user.click(screen.getByRole('combobox', { name: 'Team' }));
  await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: team }));
  await user.click(screen.getByRole('button', { name: 'Add step' }));
}

describe('ChainBuilder', () => {
  it(
    'builds, reorders and removes steps with buttons, and starts with each step config',
    { timeout: 120_000 },
    async () => {
      installMatchMedia();
      const user = userEvent.setup();
      const onStart = vi.fn();
      render(
        <ChainBuilder teams={TEAM_MANIFESTS} projectId={PROJECT} busy={false} onStart={onStart} />,
      );
      // Typed text is set at once (fireEvent): typing key by key adds nothing to what is tested.
      fireEvent.change(screen.getByRole('textbox', { name: 'Workflow name' }), {
        target: { value: 'From idea to code' },
      });
      await addStep(user, 'Literature Review');
      await addStep(user, 'Ideation');
      await addStep(user, 'Code');
      await addStep(user, 'Data');
      expect(screen.getByRole('status').textContent).toBe('Data added as step 4.');

      // Ideation first: move it up; remove the Data step.
      await user.click(screen.getByRole('button', { name: 'Move step 2 up' }));
      expect(screen.getByRole('status').textContent).toBe('Ideation moved to step 1.');
      await user.click(screen.getByRole('button', { name: 'Remove step 4' }));
      const steps = screen.getAllByRole('listitem');
      expect(steps.map((s) => s.getAttribute('aria-label'))).toEqual([
        'Step 1: Ideation',
        'Step 2: Literature Review',
        'Step 3: Code',
      ]);
      expect(screen.getByRole('button', { name: 'Move step 1 up' })).toHaveProperty(
        'disabled',
        true,
      );
      expect(screen.getByRole('button', { name: 'Move step 3 down' })).toHaveProperty(
        'disabled',
        true,
      );

      // The idea is required: the start says which step lacks what.
      await user.click(screen.getByRole('button', { name: 'Create and start' }));
      expect(screen.getByRole('alert').textContent).toBe(
        'Step 1: Research area or idea is required.',
      );
      expect(onStart).not.toHaveBeenCalled();

      fireEvent.change(within(steps[0]!).getByRole('textbox', { name: 'Research area or idea' }), {
        target: { value: 'Minimum wages and employment' },
      });
      // The Code step's settings as JSON.
      await user.click(within(steps[2]!).getByRole('button', { name: 'Edit as JSON' }));
      const json = within(steps[2]!).getByRole('textbox', { name: 'Step 3 settings (JSON)' });
      fireEvent.change(json, { target: { value: '{"language": "r", "workflowMode": "quick"}' } });
      await user.click(screen.getByRole('button', { name: 'Create and start' }));
      expect(onStart).toHaveBeenCalledWith({
        projectId: PROJECT,
        name: 'From idea to code',
        steps: [
          { team: 'ideation', config: { mode: 'human', idea: 'Minimum wages and employment' } },
          { team: 'literature', config: {} },
          { team: 'code', config: { language: 'r', workflowMode: 'quick' } },
        ],
      });
    },
  );

  it('shows a viewer why there is no start', () => {
    installMatchMedia();
    render(
      <ChainBuilder
        teams={TEAM_MANIFESTS}
        projectId={PROJECT}
        busy={false}
        cannotStart="Only its owner and editors can start one."
        onStart={() => undefined}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Create and start' })).toBeNull();
    expect(screen.getByText('Only its owner and editors can start one.')).toBeTruthy();
  });
});
