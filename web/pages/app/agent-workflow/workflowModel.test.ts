import { describe, expect, it } from 'vitest';
import type { AgentInfo, Execution } from '../../../../common/agents';
import { TEAM_MANIFESTS } from '../../../teams';
import {
  agentRows,
  controlState,
  defaultSessionId,
  elapsedSeconds,
  formatElapsed,
  progressPercent,
  stageRows,
  workflowStatusOf,
} from './workflowModel';

let n = 0;
function exec(overrides: Partial<Execution> = {}): Execution {
  n += 1;
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    executionId: id,
    sessionId: id,
    agentId: null,
    teamId: 'literature',
    projectId: null,
    status: 'completed',
    phase: 4,
    totalPhases: 4,
    checkpoint: null,
    paused: false,
    error: null,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 },
    createdAt: '2025-01-01T00:00:00.000Z',
    startedAt: '2025-01-01T00:00:00.000Z',
    completedAt: null,
    durationMs: null,
    ...overrides,
  };
}

function agent(id: string, team: string, status: AgentInfo['status'] = 'available'): AgentInfo {
  return { id, name: id, team, description: '', inputSchema: {}, status, phases: ['a', 'b'] };
}

describe('workflow status', () => {
  it('maps sessions to idle, running and paused', () => {
    expect(workflowStatusOf({ status: 'processing', paused: false })).toBe('running');
    expect(workflowStatusOf({ status: 'waiting_for_input', paused: false })).toBe('running');
    expect(workflowStatusOf({ status: 'idle', paused: true })).toBe('paused');
    expect(workflowStatusOf({ status: 'idle', paused: false })).toBe('idle');
    expect(workflowStatusOf({ status: 'completed', paused: false })).toBe('idle');
  });

  it('offers Pause while running, Start when paused or reset, Reset from any live state', () => {
    expect(controlState({ status: 'processing', paused: false, phase: 2 })).toMatchObject({
      primary: 'pause',
      primaryEnabled: true,
      resetEnabled: true,
    });
    expect(controlState({ status: 'idle', paused: true, phase: 2 })).toMatchObject({
      primary: 'resume',
      primaryEnabled: true,
      resetEnabled: true,
    });
    expect(controlState({ status: 'idle', paused: false, phase: 0 })).toMatchObject({
      primary: 'start',
      primaryEnabled: true,
      resetEnabled: false,
    });
    expect(controlState({ status: 'error', paused: false, phase: 2 })).toMatchObject({
      primaryEnabled: false,
      resetEnabled: true,
    });
    expect(controlState({ status: 'completed', paused: false, phase: 4 })).toMatchObject({
      primaryEnabled: false,
      resetEnabled: false,
    });
    expect(
      controlState({ status: 'waiting_for_input', paused: false, phase: 1 }).primaryEnabled,
    ).toBe(false);
  });
});

describe('elapsed time', () => {
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  it('counts to now while running, to completion when done, to the pause when paused', () => {
    const running = exec({ status: 'processing', completedAt: null });
    expect(elapsedSeconds(running, start + 65_400)).toBe(65);
    expect(elapsedSeconds(running, start + 66_000)).toBe(66);
    const done = exec({ completedAt: '2025-01-01T00:02:00.000Z' });
    expect(elapsedSeconds(done, start + 999_000)).toBe(120);
    const paused = exec({ status: 'idle', paused: true });
    expect(elapsedSeconds(paused, start + 999_000, '2025-01-01T00:00:30.000Z')).toBe(30);
    expect(elapsedSeconds(exec({ startedAt: null }), start)).toBeNull();
  });

  it('formats seconds, minutes and hours', () => {
    expect(formatElapsed(null)).toBe('—');
    expect(formatElapsed(7)).toBe('7 s');
    expect(formatElapsed(65)).toBe('1 min 05 s');
    expect(formatElapsed(3 * 3600 + 62)).toBe('3 h 01 min 02 s');
  });
});

describe('progress and selection', () => {
  it('counts finished phases', () => {
    expect(progressPercent({ status: 'processing', phase: 1, totalPhases: 4 })).toBe(0);
    expect(progressPercent({ status: 'waiting_for_input', phase: 1, totalPhases: 4 })).toBe(25);
    expect(progressPercent({ status: 'processing', phase: 3, totalPhases: 4 })).toBe(50);
    expect(progressPercent({ status: 'completed', phase: 4, totalPhases: 4 })).toBe(100);
    expect(progressPercent({ status: 'idle', phase: 0, totalPhases: 0 })).toBe(0);
  });

  it('selects the newest live session, else the newest', () => {
    const done = exec();
    const live = exec({ status: 'waiting_for_input' });
    expect(defaultSessionId([done, live])).toBe(live.sessionId);
    expect(defaultSessionId([done])).toBe(done.sessionId);
    expect(defaultSessionId([])).toBeUndefined();
  });
});

describe('agent activity', () => {
  it('is active while processing, standby while waiting or paused, inactive otherwise', () => {
    const agents = [
      agent('lit-agent', 'literature'),
      agent('lit-quick', 'literature'),
      agent('data-agent', 'data'),
      agent('code-agent', 'code', 'unavailable'),
    ];
    const executions = [
      // Started from the literature screen (no agent): counts for the team's first agent.
      exec({ teamId: 'literature', status: 'processing' }),
      exec({ teamId: 'literature', agentId: 'lit-quick', status: 'completed' }),
      exec({ teamId: 'data', agentId: 'data-agent', status: 'idle', paused: true }),
      exec({ teamId: 'data', agentId: 'data-agent', status: 'completed' }),
    ];
    const rows = agentRows(agents, executions);
    expect(rows.map((r) => [r.agent.id, r.activity, r.tasks, r.completed])).toEqual([
      ['lit-agent', 'active', 1, 0],
      ['lit-quick', 'inactive', 1, 1],
      ['data-agent', 'standby', 2, 1],
      ['code-agent', 'inactive', 0, 0],
    ]);
  });

  it('takes the counts from the metrics when given (every session, not one page)', () => {
    const rows = agentRows(
      [agent('lit-agent', 'literature'), agent('lit-quick', 'literature')],
      [],
      [
        {
          key: 'lit-agent',
          executions: 3,
          byStatus: { completed: 2 },
          durationP50Ms: null,
          durationP95Ms: null,
          totalTokens: 0,
          costUsd: 0,
        },
        {
          key: 'literature',
          executions: 5,
          byStatus: { completed: 1, error: 4 },
          durationP50Ms: null,
          durationP95Ms: null,
          totalTokens: 0,
          costUsd: 0,
        },
        {
          key: 'lit-quick',
          executions: 1,
          byStatus: {},
          durationP50Ms: null,
          durationP95Ms: null,
          totalTokens: 0,
          costUsd: 0,
        },
      ],
    );
    expect(rows.map((r) => [r.tasks, r.completed])).toEqual([
      [8, 3],
      [1, 0],
    ]);
  });
});

describe('research stages', () => {
  it('derives the nine stages from the workflow stage', () => {
    const rows = stageRows('literature', [], TEAM_MANIFESTS);
    expect(rows.map((r) => r.stage)).toEqual([
      'ideation',
      'proposal',
      'literature',
      'data',
      'modeling',
      'coding',
      'validation',
      'reporting',
      'replication',
    ]);
    expect(rows.map((r) => r.status)).toEqual([
      'completed',
      'completed',
      'in_progress',
      'pending',
      'pending',
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
  });

  it('marks a stage in progress while its team runs for the project, completed when it finished', () => {
    const rows = stageRows(
      'ideation',
      [
        exec({ teamId: 'data', status: 'processing' }),
        exec({ teamId: 'model', status: 'completed' }),
        exec({ teamId: 'code', status: 'error' }),
      ],
      TEAM_MANIFESTS,
    );
    const byStage = Object.fromEntries(rows.map((r) => [r.stage, r]));
    expect(byStage.data).toMatchObject({ status: 'in_progress', sessions: 1, live: 1 });
    expect(byStage.modeling).toMatchObject({ status: 'completed', completedSessions: 1 });
    expect(byStage.coding).toMatchObject({ status: 'pending', sessions: 1 });
    expect(byStage.ideation).toMatchObject({ status: 'in_progress', teamIds: ['ideation'] });
    expect(byStage.proposal!.teamIds).toEqual([]);
  });

  it('takes the teams of a stage from the list given, several teams counted together', () => {
    const teams = [
      { id: 'data', stage: 'data' as const },
      { id: 'survey', stage: 'data' as const },
      { id: 'audit', stage: 'validation' as const },
    ];
    const rows = stageRows(
      'ideation',
      [
        exec({ teamId: 'survey', status: 'processing' }),
        exec({ teamId: 'data', status: 'completed' }),
        exec({ teamId: 'audit', status: 'completed' }),
        exec({ teamId: 'model', status: 'processing' }),
      ],
      teams,
    );
    const byStage = Object.fromEntries(rows.map((r) => [r.stage, r]));
    expect(byStage.data).toMatchObject({
      teamIds: ['data', 'survey'],
      status: 'in_progress',
      sessions: 2,
      live: 1,
      completedSessions: 1,
    });
    expect(byStage.validation).toMatchObject({ teamIds: ['audit'], status: 'completed' });
    // A team missing from the list works in no stage: its sessions count nowhere.
    expect(byStage.modeling).toMatchObject({ teamIds: [], status: 'pending', sessions: 0 });
  });
});
