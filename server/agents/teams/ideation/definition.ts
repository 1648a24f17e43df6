import {
  IDEATION_TEAM_ID,
  ideationInputSchema,
  ideationPhases,
  type IdeationMode,
  type IdeationPhaseKey,
} from '../../../../common/teams/ideation';
import { openAlexService } from '../../../sources/openalex-service';
import { defineTeam } from '../../kit';

/**
 * The Ideation team's declaration (docs/architecture.md, "Adding a team"): its input, each
 * phase's result schema (from the phase table) and the OpenAlex service. The phases
 * (phases/<key>.ts) and team.ts build on it.
 */
export const ideation = defineTeam({
  id: IDEATION_TEAM_ID,
  name: 'Ideation',
  label: 'Ideation',
  stage: 'ideation',
  description:
    'Turns an idea, or the economics topics whose publication output grew most, into 3 to 5 ' +
    'ranked research questions grounded in the works retrieved from OpenAlex.',
  input: ideationInputSchema,
  results: ideationPhases.results,
  services: { openalex: openAlexService },
});

/** The v2 agents the two modes run (their phase plans differ: automatic discovers trends). */
export const IDEATION_AGENT_IDS: Record<IdeationMode, string> = {
  human: 'ideation-human',
  automatic: 'ideation-automatic',
};

/**
 * A phase's name from the phase table. The runtime writes it in its "Starting phase 2/4:
 * Refiner" line, which opens that agent's panel on the screen, so it must begin with the agent.
 */
export function phaseName(key: IdeationPhaseKey): string {
  return ideationPhases.rows[ideationPhases.numberOf(key) - 1]!.name;
}
