import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiKeyField } from './ApiKeyField';
import type { KeyEdit } from './form';

afterEach(cleanup);

describe('ApiKeyField', () => {
  it('shows a stored key only masked, with Replace and Clear', async () => {
    const onChange = vi.fn();
    render(
      <ApiKeyField
        label="FRED API key"
        stored={{ hasKey: true, masked: 'fred••••9f2a' }}
        edit={{ mode: 'keep' }}
        onChange={onChange}
      />,
    );
    expect(screen.getByTestId('api-key-masked').textContent).toBe('fred••••9f2a');
    await userEvent.click(screen.getByRole('button', { name: 'Replace FRED API key' }));
    expect(onChange).toHaveBeenLastCalledWith({ mode: 'replace', value: '' });
    await userEvent.click(screen.getByRole('button', { name: 'Clear FRED API key' }));
    expect(onChange).toHaveBeenLastCalledWith({ mode: 'clear' });
  });

  it('says when a key is not set and offers only Set key', () => {
    render(
      <ApiKeyField
        label="FRED API key"
        stored={{ hasKey: false, masked: null }}
        edit={{ mode: 'keep' }}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByTestId('api-key-masked').textContent).toBe('Not set');
    expect(screen.getByRole('button', { name: 'Set key for FRED API key' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Clear/ })).toBeNull();
  });

  it('types a new key into a password field, and Undo takes back a Clear', async () => {
    let edit: KeyEdit = { mode: 'replace', value: '' };
    const onChange = vi.fn((next: KeyEdit) => (edit = next));
    const view = render(
      <ApiKeyField
        label="FRED API key"
        stored={{ hasKey: true, masked: 'x' }}
        edit={edit}
        onChange={onChange}
      />,
    );
    const input = screen.getByLabelText('New FRED API key') as HTMLInputElement;
    expect(input.type).toBe('password');
    await userEvent.type(input, 'k');
    expect(edit).toEqual({ mode: 'replace', value: 'k' });
    view.rerender(
      <ApiKeyField
        label="FRED API key"
        stored={{ hasKey: true, masked: 'x' }}
        edit={{ mode: 'clear' }}
        onChange={onChange}
      />,
    );
    expect(screen.getByTestId('api-key-masked').textContent).toBe('Will be removed when you save');
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(edit).toEqual({ mode: 'keep' });
  });
});
