import type { AgentInfo, Execution, MetricsGroup, SessionStatus } from '../../../../common/agents';
import { WORKFLOW_STAGES, type WorkflowStage } from '../../../../common/projects';

/**
 * The Agent Workflow page's rules, as pure functions over the runtime's data: a session's
 * workflow status and controls, its elapsed time and progress, the agents' activity and a
 * project's research stages.
 */

/** A workflow goes idle -> running (start); running <-> paused; any -> idle (reset). */
export type WorkflowStatus = 'idle' | 'running' | 'paused';

export function workflowStatusOf(s: { status: SessionStatus; paused: boolean }): WorkflowStatus {
  if (s.status === 'idle' && s.paused) return 'paused';
  if (s.status === 'processing' || s.status === 'waiting_for_input') return 'running';
  return 'idle';
}

/** Whether the session is working or waiting on its researcher (counts as running). */
export function isLive(s: { status: SessionStatus }): boolean {
  return s.status === 'processing' || s.status === 'waiting_for_input';
}

/** What the Start/Pause and Reset buttons do for a session in this state. */
export interface ControlState {
  /** 'pause' while processing, 'resume' when paused, 'start' for a reset (idle) session. */
  primary: 'pause' | 'resume' | 'start';
  primaryEnabled: boolean;
  /** Why the primary button is disabled, for its tooltip. */
  primaryHint?: string;
  resetEnabled: boolean;
  resetHint?: string;
}

export function controlState(s: {
  status: SessionStatus;
  paused: boolean;
  phase: number;
}): ControlState {
  switch (s.status) {
    case 'processing':
      return { primary: 'pause', primaryEnabled: true, resetEnabled: true };
    case 'waiting_for_input':
      return {
        primary: 'pause',
        primaryEnabled: false,
        primaryHint:
          'The team is waiting for your feedback at a checkpoint; answer it on its screen',
        resetEnabled: true,
      };
    case 'idle':
      if (s.paused) return { primary: 'resume', primaryEnabled: true, resetEnabled: true };
      return {
        primary: 'start',
        primaryEnabled: s.phase === 0,
        resetEnabled: false,
        resetHint: 'The session is already idle',
      };
    case 'error':
      return {
        primary: 'start',
        primaryEnabled: false,
        primaryHint: 'Reset the session first, then start it again',
        resetEnabled: true,
      };
    case 'completed':
      return {
        primary: 'start',
        primaryEnabled: false,
        primaryHint: 'This session is completed; start a new one from its team screen',
        resetEnabled: false,
        resetHint: 'A completed session is kept as it is',
      };
  }
}

/**
 * Seconds from the start to now while running, to completion when finished, and to the last
 * change (`frozenAt`) when paused; null when it never started or the end is unknown.
 */
export function elapsedSeconds(
  s: {
    status: SessionStatus;
    startedAt: string | null;
    completedAt: string | null;
  },
  nowMs: number,
  frozenAt?: string | null,
): number | null {
  if (!s.startedAt) return null;
  const start = Date.parse(s.startedAt);
  let end: number | undefined;
  if (s.completedAt) end = Date.parse(s.completedAt);
  else if (isLive(s)) end = nowMs;
  else if (frozenAt) end = Date.parse(frozenAt);
  if (end === undefined || !Number.isFinite(start) || !Number.isFinite(end)) return null;
  return Math.max(0, Math.floor((end - start) / 1000));
}

/** '42 s', '3 min 05 s', '2 h 03 min 05 s'. */
export function formatElapsed(seconds: number | null): string {
  if (seconds === null) return '—';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const ss = String(s).padStart(2, '0');
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min ${ss} s`;
  if (m > 0) return `${m} min ${ss} s`;
  return `${s} s`;
}

/** Progress of a session in percent: finished phases over all phases. */
export function progressPercent(e: {
  status: SessionStatus;
  phase: number;
  totalPhases: number;
}): number {
  if (e.status === 'completed') return 100;
  if (e.totalPhases <= 0) return 0;
  // The current phase is not done yet, except at a checkpoint where its result is under review.
  const done = e.status === 'waiting_for_input' ? e.phase : Math.max(0, e.phase - 1);
  return Math.round((Math.min(done, e.totalPhases) / e.totalPhases) * 100);
}

/** The session to show when none is chosen: the newest live one, else the newest. */
export function defaultSessionId(executions: readonly Execution[]): string | undefined {
  return (executions.find(isLive) ?? executions[0])?.sessionId;
}

// ---- Agent Teams tab ---------------------------------------------------------------------------

/** An agent's activity on the Agent Teams tab: active, standby or inactive. */
export type AgentActivity = 'active' | 'standby' | 'inactive';

export interface AgentRow {
  agent: AgentInfo;
  activity: AgentActivity;
  /** Sessions of this agent (all time). */
  tasks: number;
  completed: number;
  /** Sessions of this agent processing now / waiting for input or paused now. */
  running: number;
  waiting: number;
}

/**
 * Each agent with its activity from real sessions: active while one of its sessions is
 * processing, standby while one waits for input or is paused, inactive otherwise. Sessions
 * started through a team's own screen carry no agent id; they count for the team's first agent.
 */
export function agentRows(
  agents: readonly AgentInfo[],
  executions: readonly Execution[],
  metricsByAgent?: readonly MetricsGroup[],
): AgentRow[] {
  const firstOfTeam = new Map<string, string>();
  for (const a of agents) if (!firstOfTeam.has(a.team)) firstOfTeam.set(a.team, a.id);

  return agents.map((agent) => {
    const isFirst = firstOfTeam.get(agent.team) === agent.id;
    const mine = executions.filter(
      (e) => e.agentId === agent.id || (e.agentId === null && isFirst && e.teamId === agent.team),
    );
    const running = mine.filter((e) => e.status === 'processing').length;
    const waiting = mine.filter(
      (e) => e.status === 'waiting_for_input' || (e.status === 'idle' && e.paused),
    ).length;
    let tasks = mine.length;
    let completed = mine.filter((e) => e.status === 'completed').length;
    if (metricsByAgent) {
      // Metrics count every session, not just the page of executions loaded.
      const keys = new Set([agent.id]);
      if (isFirst) keys.add(agent.team);
      const groups = metricsByAgent.filter((g) => keys.has(g.key));
      tasks = groups.reduce((n, g) => n + g.executions, 0);
      completed = groups.reduce((n, g) => n + (g.byStatus.completed ?? 0), 0);
    }
    const activity: AgentActivity = running > 0 ? 'active' : waiting > 0 ? 'standby' : 'inactive';
    return { agent, activity, tasks, completed, running, waiting };
  });
}

// ---- Research Stages tab -----------------------------------------------------------------------

export const STAGE_LABELS: Record<WorkflowStage, string> = {
  ideation: 'Ideation',
  proposal: 'Proposal',
  literature: 'Literature Review',
  data: 'Data',
  modeling: 'Modeling',
  coding: 'Coding',
  validation: 'Validation',
  reporting: 'Reporting',
  replication: 'Replication',
};

export type StageStatus = 'completed' | 'in_progress' | 'pending';

export interface StageRow {
  stage: WorkflowStage;
  label: string;
  status: StageStatus;
  /** The teams working in this stage (none for most), in the order of the list given. */
  teamIds: string[];
  /** The project's sessions of those teams: all, live now, completed. */
  sessions: number;
  live: number;
  completedSessions: number;
}

/**
 * The nine stages of a project: stages before the project's workflowStage are completed, that
 * stage is in progress, later ones pending; a stage whose team has a live session of the project
 * is in progress, and one whose team completed a session for it is completed. Which team works in
 * which stage comes from the teams given (their manifests' `stage`).
 */
export function stageRows(
  workflowStage: WorkflowStage,
  projectExecutions: readonly Execution[],
  teams: ReadonlyArray<{ id: string; stage: WorkflowStage }>,
): StageRow[] {
  const current = WORKFLOW_STAGES.indexOf(workflowStage);
  return WORKFLOW_STAGES.map((stage, index) => {
    const teamIds = teams.filter((t) => t.stage === stage).map((t) => t.id);
    const sessions = projectExecutions.filter((e) => teamIds.includes(e.teamId));
    const live = sessions.filter(isLive).length;
    const completedSessions = sessions.filter((e) => e.status === 'completed').length;
    let status: StageStatus =
      index < current ? 'completed' : index === current ? 'in_progress' : 'pending';
    if (live > 0) status = 'in_progress';
    else if (completedSessions > 0) status = 'completed';
    return {
      stage,
      label: STAGE_LABELS[stage],
      status,
      teamIds,
      sessions: sessions.length,
      live,
      completedSessions,
    };
  });
}
