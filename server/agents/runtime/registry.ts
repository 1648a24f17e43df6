import { z } from 'zod';
import {
  subscriptionTypeOf,
  type AgentInfo,
  type TeamInfo,
  type TeamPhaseInfo,
} from '../../../common/agents';
import type { PlanShape } from './state-machine';
import type { AgentDefinition, PhaseDefinition, TeamAvailability, TeamDefinition } from './team';
import type { ServiceHost } from '../../platform/services';

/** The teams this server runs, their agents, and each session plan's shape. */
export interface TeamRegistry {
  teams(): TeamDefinition[];
  team(teamId: string): TeamDefinition | undefined;
  /** An agent with its team. */
  agent(agentId: string): { agent: AgentDefinition; team: TeamDefinition } | undefined;
  availability(teamId: string): TeamAvailability;
  teamInfo(team: TeamDefinition): TeamInfo;
  agentInfos(): AgentInfo[];
  agentInfo(agentId: string): AgentInfo | undefined;
  /** The phase definitions of a plan (keys in order); throws for a key the team lacks. */
  phasesOf(team: TeamDefinition, plan: string[]): PhaseDefinition[];
  planShape(team: TeamDefinition, plan: string[]): PlanShape;
}

/** JSON Schema of a zod schema's input side; schemas it cannot express become `{}`. */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}

export function createTeamRegistry(
  definitions: TeamDefinition[],
  services: ServiceHost,
): TeamRegistry {
  const byId = new Map<string, TeamDefinition>();
  const agents = new Map<string, { agent: AgentDefinition; team: TeamDefinition }>();
  for (const team of definitions) {
    if (byId.has(team.id)) throw new Error(`Team ${team.id} is registered twice`);
    byId.set(team.id, team);
    for (const agent of team.agents) {
      if (agents.has(agent.id)) throw new Error(`Agent ${agent.id} is registered twice`);
      agents.set(agent.id, { agent, team });
    }
  }

  function availability(teamId: string): TeamAvailability {
    const team = byId.get(teamId);
    if (!team) return { available: false, reason: 'This team is not available on this server yet' };
    return team.availability?.(services) ?? { available: true };
  }

  function phasesOf(team: TeamDefinition, plan: string[]): PhaseDefinition[] {
    return plan.map((key) => {
      const phase = team.phases.find((p) => p.key === key);
      if (!phase) throw new Error(`Team ${team.id} has no phase ${key}`);
      return phase;
    });
  }

  function agentInfoOf(agent: AgentDefinition, team: TeamDefinition): AgentInfo {
    return {
      id: agent.id,
      name: agent.name,
      team: team.id,
      description: agent.description,
      inputSchema: jsonSchemaOf(agent.inputSchema ?? team.inputSchema),
      status: availability(team.id).available ? 'available' : 'unavailable',
      phases: agent.phases ?? team.phases.map((p) => p.key),
    };
  }

  return {
    teams: () => [...byId.values()],
    team: (teamId) => byId.get(teamId),
    agent: (agentId) => agents.get(agentId),
    availability,
    teamInfo(team) {
      const a = availability(team.id);
      const phases: TeamPhaseInfo[] = team.phases.map((p, i) => ({
        phase: i + 1,
        key: p.key,
        name: p.name,
        description: p.description,
        checkpoint: p.checkpoint !== undefined,
        checkpointTitle: p.checkpoint?.title ?? null,
        requiresModel: p.requiresModel,
      }));
      return {
        id: team.id,
        name: team.name,
        label: team.label,
        stage: team.stage ?? null,
        description: team.description,
        subscriptionType: subscriptionTypeOf(team.id),
        available: a.available,
        ...(a.reason ? { reason: a.reason } : {}),
        phases,
      };
    },
    agentInfos: () => [...agents.values()].map(({ agent, team }) => agentInfoOf(agent, team)),
    agentInfo(agentId) {
      const found = agents.get(agentId);
      return found ? agentInfoOf(found.agent, found.team) : undefined;
    },
    phasesOf,
    planShape(team, plan) {
      const phases = phasesOf(team, plan);
      // Checkpoints are numbered in plan order: the k-th phase with a checkpoint is checkpoint k.
      const numbers: Array<number | null> = [];
      let k = 0;
      for (const p of phases) numbers.push(p.checkpoint ? ++k : null);
      return {
        totalPhases: phases.length,
        checkpointOf: (phase) => numbers[phase - 1] ?? null,
      };
    },
  };
}
