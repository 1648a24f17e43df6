import type { AgentSession } from '../../../common/agents';
import type { AgentSessionRow } from '../../db/schema/agents';
import type { RuntimeCore } from './runtime-core';
import type { MachineState } from './state-machine';

/** A stored session as the API, the state machine and notifications describe it. */

export function machineState(row: AgentSessionRow): MachineState {
  return {
    status: row.status,
    phase: row.phase,
    checkpoint: row.checkpoint,
    paused: row.paused,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toSession(row: AgentSessionRow): AgentSession {
  return {
    sessionId: row.id,
    teamId: row.teamId,
    agentId: row.agentId,
    ownerId: row.ownerId,
    projectId: row.projectId,
    input: row.input,
    configuration: row.configuration,
    status: row.status,
    phase: row.phase,
    phaseKey: row.phase > 0 ? (row.plan[row.phase - 1] ?? null) : null,
    phaseName: null,
    totalPhases: row.plan.length,
    checkpoint: row.checkpoint,
    checkpointData: row.checkpointData ?? null,
    results: row.results,
    feedback: row.feedback,
    finalOutputs: row.finalOutputs ?? null,
    error: row.error,
    paused: row.paused,
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      totalTokens: row.inputTokens + row.outputTokens,
      costUsd: row.costUsd,
      calls: row.llmCalls,
    },
    tokenBudget: row.tokenBudget,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
  };
}

/** Adds the phase's display name, which lives in the team definition. */
export function describeSession(core: RuntimeCore, row: AgentSessionRow): AgentSession {
  const session = toSession(row);
  if (session.phaseKey) {
    const team = core.registry.team(row.teamId);
    session.phaseName = team?.phases.find((p) => p.key === session.phaseKey)?.name ?? null;
  }
  return session;
}

export function sessionLink(core: RuntimeCore, row: AgentSessionRow): string {
  const team = core.registry.team(row.teamId);
  return team?.link?.(row.id) ?? `/app/${row.teamId}-team?session=${row.id}`;
}

export function teamName(core: RuntimeCore, row: AgentSessionRow): string {
  return core.registry.team(row.teamId)?.name ?? row.teamId;
}
