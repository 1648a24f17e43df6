import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installMatchMedia } from '../../../testing/renderApp';
import { ProjectFormDialog } from './ProjectFormDialog';

afterEach(cleanup);

function renderNew() {
  installMatchMedia();
  const onSubmit = vi.fn();
  render(<ProjectFormDialog open onSubmit={onSubmit} onClose={() => undefined} />);
  const dialog = screen.getByRole('dialog', { name: 'New Project' });
  return { onSubmit, dialog, create: within(dialog).getByRole('button', { name: 'Create' }) };
}

describe('New Project dialog', () => {
  it('enables Create only when title and research area are both non-empty', async () => {
    const user = userEvent.setup();
    const { dialog, create } = renderNew();
    expect((create as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByLabelText(/Title/), 'Housing and fertility');
    expect((create as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByRole('combobox', { name: /Research area/ }), '   ');
    expect((create as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByRole('combobox', { name: /Research area/ }), 'Demography');
    expect((create as HTMLButtonElement).disabled).toBe(false);
    await user.clear(within(dialog).getByLabelText(/Title/));
    expect((create as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends trimmed values, an optional description and status planning by default', async () => {
    const user = userEvent.setup();
    const { dialog, create, onSubmit } = renderNew();
    await user.type(within(dialog).getByLabelText(/Title/), '  Housing and fertility  ');
    await user.type(within(dialog).getByRole('combobox', { name: /Research area/ }), 'Demography');
    await user.keyboard('{Escape}');
    await user.click(create);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      title: 'Housing and fertility',
      researchArea: 'Demography',
      description: '',
      status: 'planning',
    });
  });

  it('lets any status be chosen at creation', async () => {
    const user = userEvent.setup();
    const { dialog, create, onSubmit } = renderNew();
    await user.type(within(dialog).getByLabelText(/Title/), 'Archived idea');
    await user.type(within(dialog).getByRole('combobox', { name: /Research area/ }), 'Other');
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('combobox', { name: /Status/ }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Planning', 'Active', 'Paused', 'Completed', 'Archived']);
    await user.click(screen.getByRole('option', { name: 'Archived' }));
    await user.click(create);
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ status: 'archived' });
  });

  it('shows the server error in the dialog', () => {
    installMatchMedia();
    render(
      <ProjectFormDialog
        open
        error="title must be at most 200 characters"
        onSubmit={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('title must be at most 200 characters');
  });
});
