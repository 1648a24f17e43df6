import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { DashboardStats } from '../../../../common/dashboard';
import { StatCards } from './StatCards';

afterEach(cleanup);

const base: DashboardStats = {
  totalProjects: 12,
  activeProjects: 4,
  datasets: 7,
  datasetsInUse: 3,
  activeAgents: 2,
  averageTimeReduction: { value: null, reason: 'No completed session measured it yet.' },
  averageQualityImprovement: { value: 17.5, reason: 'Average over 2 sessions.', basedOn: 2 },
  researchAreas: 5,
};

describe('StatCards', () => {
  it('shows the server numbers with their details', () => {
    render(<StatCards stats={base} />);
    expect(screen.getByTestId('stat-projects-value').textContent).toBe('12');
    expect(screen.getByTestId('stat-projects').textContent).toContain('4 active');
    expect(screen.getByTestId('stat-datasets').textContent).toContain('3 in use');
    expect(screen.getByTestId('stat-agents-value').textContent).toBe('2');
    expect(screen.getByTestId('stat-areas-value').textContent).toBe('5');
    expect(screen.getByTestId('stat-quality-value').textContent).toBe('17.5%');
    expect(screen.getByTestId('stat-quality').textContent).toContain('Across 2 sessions');
  });

  it("shows '—' and the server's reason, never a number, when the value is null", () => {
    render(<StatCards stats={base} />);
    const time = screen.getByTestId('stat-time-value');
    expect(time.textContent).toBe('—');
    expect(time.textContent).not.toMatch(/\d/);
    expect(
      screen.getByLabelText('Not available: No completed session measured it yet.'),
    ).toBeTruthy();
    expect(screen.getByTestId('stat-time').textContent).toContain('Not measured yet');
  });
});
