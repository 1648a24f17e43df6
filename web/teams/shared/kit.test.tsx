import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_STATUSES } from '../../../common/agents';
import { CheckpointPanel } from './CheckpointPanel';
import { FUN_FACTS_DISMISSED_KEY, FunFactsFooter, nextFactIndex } from './FunFactsFooter';
import { FUN_FACTS } from './funFacts';
import { LogsTab } from './LogsTab';
import { PhaseStepper } from './PhaseStepper';
import { StatusChip } from './StatusChip';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('StatusChip', () => {
  it('labels the five statuses as the spec says', () => {
    const labels = SESSION_STATUSES.map((status) => {
      const { unmount } = render(<StatusChip status={status} />);
      const text = screen.getByRole('status').textContent;
      unmount();
      return text;
    });
    expect(labels).toEqual(['Idle', 'Processing', 'Waiting for Input', 'Completed', 'Error']);
  });

  it('is a polite live region named after the status, and says Paused for a paused session', () => {
    render(<StatusChip status="idle" paused />);
    const chip = screen.getByRole('status', { name: 'Status: Paused' });
    expect(chip).toHaveProperty('textContent', 'Paused');
    expect(chip.getAttribute('aria-live')).toBe('polite');
  });
});

describe('CheckpointPanel', () => {
  function renderPanel() {
    const onSubmitFeedback = vi.fn(async () => true);
    const onApprove = vi.fn();
    const onReset = vi.fn();
    render(
      <CheckpointPanel
        title="Checkpoint 1: Theoretical Framework Review"
        description="Check the framework."
        onSubmitFeedback={onSubmitFeedback}
        onApprove={onApprove}
        onReset={onReset}
      />,
    );
    return { onSubmitFeedback, onApprove, onReset };
  }

  it('keeps Submit Feedback disabled while the feedback is blank', async () => {
    const user = userEvent.setup();
    const { onSubmitFeedback } = renderPanel();
    const submit = screen.getByRole('button', { name: 'Submit Feedback' });
    expect(submit).toHaveProperty('disabled', true);
    const box = screen.getByRole('textbox', { name: 'Your feedback' });
    fireEvent.change(box, { target: { value: ' \n  ' } });
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.change(box, { target: { value: '   Use quarterly data ' } });
    expect(submit).toHaveProperty('disabled', false);
    await user.click(submit);
    expect(onSubmitFeedback).toHaveBeenCalledWith('Use quarterly data');
    // Accepted: the box is cleared and the button disabled again.
    expect(box).toHaveProperty('value', '');
    expect(submit).toHaveProperty('disabled', true);
  });

  it('has a heading, Approve & Continue and Reset', async () => {
    const user = userEvent.setup();
    const { onApprove, onReset, onSubmitFeedback } = renderPanel();
    expect(
      screen.getByRole('region', { name: 'Checkpoint 1: Theoretical Framework Review' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve & Continue' }));
    expect(onApprove).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(onReset).toHaveBeenCalledTimes(1);
    expect(onSubmitFeedback).not.toHaveBeenCalled();
  });
});

describe('PhaseStepper', () => {
  it('puts a HITL chip on human phases only and marks the current step', () => {
    render(
      <PhaseStepper
        activeStep={1}
        steps={[
          { label: 'Research Question' },
          { label: 'Literature Search', requiresHuman: true },
          { label: 'Gaps Validation', requiresHuman: true },
          { label: 'Completed' },
        ]}
      />,
    );
    const nav = screen.getByRole('navigation', { name: 'Workflow phases' });
    expect(within(nav).getAllByText('HITL')).toHaveLength(2);
    const current = nav.querySelector('[aria-current="step"]');
    expect(current?.textContent).toContain('Literature Search');
  });
});

describe('LogsTab', () => {
  it('shows the lines in a named log and copies them', async () => {
    // After userEvent.setup(): it installs its own clipboard stub.
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { rerender } = render(<LogsTab logs={[]} />);
    const log = screen.getByRole('log', { name: 'Console logs' });
    expect(log.textContent).toContain('No log lines yet');
    expect(screen.getByRole('button', { name: 'Copy logs' })).toHaveProperty('disabled', true);
    rerender(<LogsTab logs={['Retrieved 37 works from OpenAlex', 'Ranked 12 papers']} />);
    expect(within(log).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Copy logs' }));
    expect(writeText).toHaveBeenCalledWith('Retrieved 37 works from OpenAlex\nRanked 12 papers');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
  });
});

describe('FunFactsFooter', () => {
  it('replaces the fact with another one every 5 s', () => {
    vi.useFakeTimers();
    const facts = ['Fact A', 'Fact B', 'Fact C'];
    // Starts at index 0; then steps 1 + floor(0.6 * 2) = 2 -> index 2, then -> index 1.
    const random = vi.fn(() => 0.6);
    random.mockReturnValueOnce(0);
    render(<FunFactsFooter facts={facts} random={random} />);
    const text = () => screen.getByTestId('fun-fact').textContent;
    expect(text()).toContain('Fact A');
    act(() => vi.advanceTimersByTime(4999));
    expect(text()).toContain('Fact A');
    act(() => vi.advanceTimersByTime(1));
    expect(text()).toContain('Fact C');
    act(() => vi.advanceTimersByTime(5000));
    expect(text()).toContain('Fact B');
  });

  it('can be hidden, and stays hidden on the next visit', () => {
    localStorage.removeItem(FUN_FACTS_DISMISSED_KEY);
    const first = render(<FunFactsFooter />);
    expect(screen.getByTestId('fun-fact')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Hide fun facts' }));
    expect(screen.queryByTestId('fun-fact')).toBeNull();
    first.unmount();
    render(<FunFactsFooter />);
    expect(screen.queryByRole('complementary', { name: 'Fun fact' })).toBeNull();
    localStorage.removeItem(FUN_FACTS_DISMISSED_KEY);
  });

  it('never shows the same fact twice in a row and can be paused', () => {
    vi.useFakeTimers();
    render(<FunFactsFooter />);
    const text = () => screen.getByTestId('fun-fact').textContent;
    let previous = text();
    for (let i = 0; i < 30; i++) {
      act(() => vi.advanceTimersByTime(5000));
      expect(text()).not.toBe(previous);
      previous = text();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Pause fun facts' }));
    act(() => vi.advanceTimersByTime(20_000));
    expect(text()).toBe(previous);
    expect(screen.getByRole('complementary', { name: 'Fun fact' })).toBeTruthy();
  });

  it('has about twenty facts and picks every other fact', () => {
    expect(FUN_FACTS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(FUN_FACTS).size).toBe(FUN_FACTS.length);
    const reached = new Set<number>();
    for (let r = 0; r < 1; r += 0.01) reached.add(nextFactIndex(3, 10, () => r));
    expect([...reached].sort((a, b) => a - b)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
  });
});
