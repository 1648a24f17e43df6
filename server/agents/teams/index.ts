import type { Config } from '../../config';
import type { TeamDefinition } from '../team';

/**
 * The product's teams. Each team's issue adds its definition here (server/agents/teams/<team>/).
 */
export const productTeams: TeamDefinition[] = [];

/**
 * Every team this process runs: the product's teams, plus the runtime's internal test team when
 * AGENT_TEST_TEAM is set (tests only; it never appears in production).
 */
export async function loadTeams(config: Config): Promise<TeamDefinition[]> {
  if (!config.agents.testTeam) return productTeams;
  const { runtimeTestTeam } = await import('../../../test/teams/runtime-test-team');
  return [...productTeams, runtimeTestTeam];
}
