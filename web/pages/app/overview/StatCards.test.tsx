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
  work: {
    sessionsCompleted: 9,
    checkpointsAnswered: 14,
    referencesVerified: 31,
    datasetsProfiled: 2,
    modelsSolved: 1,
    codeRunsPassed: 3,
  },
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
    expect(screen.getByTestId('stat-sessions-value').textContent).toBe('9');
    expect(screen.getByTestId('stat-sessions').textContent).toContain('14 checkpoints answered');
    expect(screen.getByTestId('stat-verified-value').textContent).toBe('31');
    expect(screen.getByTestId('stat-verified').textContent).toContain(
      '2 datasets profiled, 1 models solved, 3 code runs passed',
    );
  });

  it('shows no estimated figure (time saved, quality gained): only what the record counts', () => {
    render(<StatCards stats={base} />);
    expect(screen.queryByTestId('stat-time')).toBeNull();
    expect(screen.queryByTestId('stat-quality')).toBeNull();
    expect(document.body.textContent).not.toMatch(/time reduction|quality improvement/i);
  });
});
