import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormRow, StartButtonRow } from './ConfigurationForm';
import { LabelledSelect, optionsOf } from './LabelledSelect';
import { NoticeAlert, ScreenAlert, sessionErrorText } from './ScreenAlert';

afterEach(cleanup);

type Fruit = 'apple' | 'pear';

describe('LabelledSelect', () => {
  it('is named by its label and hands back the chosen option value', () => {
    const onChange = vi.fn<(v: Fruit) => void>();
    render(
      <LabelledSelect
        id="fruit"
        label="Fruit"
        value="apple"
        options={optionsOf<Fruit>(['apple', 'pear'], { apple: 'Apple', pear: 'Pear' })}
        onChange={onChange}
        helperText="Pick one"
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Fruit' });
    expect(select.textContent).toBe('Apple');
    expect(screen.getByText('Pick one')).toBeTruthy();
    fireEvent.mouseDown(select);
    fireEvent.click(within(screen.getByRole('listbox')).getByText('Pear'));
    expect(onChange).toHaveBeenCalledWith('pear');
  });

  it('shows a value that is not among the options as empty', () => {
    render(
      <LabelledSelect
        id="f"
        label="Fruit"
        value=""
        options={optionsOf(['a', 'b'])}
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'Fruit' }).textContent).not.toMatch(/[ab]/);
  });

  it('labels options with a function', () => {
    expect(optionsOf(['x'], (v) => v.toUpperCase())).toEqual([{ value: 'x', label: 'X' }]);
  });
});

describe('ScreenAlert and NoticeAlert', () => {
  it('shows nothing without a message', () => {
    const { container } = render(
      <>
        <ScreenAlert severity="error" message={undefined} />
        <ScreenAlert severity="error" message="" />
        <NoticeAlert notice={undefined} onClose={vi.fn()} />
      </>,
    );
    expect(container.textContent).toBe('');
  });

  it('shows a notice that can be closed', () => {
    const onClose = vi.fn();
    render(<NoticeAlert notice={{ severity: 'success', text: 'Copied' }} onClose={onClose} />);
    expect(screen.getByRole('alert').textContent).toContain('Copied');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});

describe('sessionErrorText', () => {
  it('says the process error, or the fallback when the server gave none', () => {
    expect(sessionErrorText({ status: 'error', error: 'Boom' }, 'Failed')).toBe('Boom');
    expect(sessionErrorText({ status: 'error', error: undefined }, 'Failed')).toBe('Failed');
  });

  it('shows a failed call outside the error status only with the call prefix', () => {
    const failed = { status: 'idle', error: 'Error starting CodeTeam: 400' };
    expect(sessionErrorText(failed, 'Failed')).toBe(failed.error);
    expect(sessionErrorText(failed, 'Failed', 'Error submitting')).toBeUndefined();
    expect(sessionErrorText({ status: 'processing', error: undefined }, 'Failed')).toBeUndefined();
  });
});

describe('StartButtonRow and FormRow', () => {
  it('says Working... and is off while running', () => {
    render(
      <form>
        <FormRow>
          <span>field</span>
        </FormRow>
        <StartButtonRow label="Develop Code" running>
          <button type="button">Reset</button>
        </StartButtonRow>
      </form>,
    );
    const submit = screen.getByRole('button', { name: 'Working...' });
    expect(submit).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Reset' })).toBeTruthy();
  });

  it('shows its label when idle', () => {
    render(<StartButtonRow label="Develop Code" running={false} />);
    expect(screen.getByRole('button', { name: 'Develop Code' })).toHaveProperty('disabled', false);
  });
});
