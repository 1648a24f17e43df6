import {
  contextualizeResultSchema,
  finalizeResultSchema,
  IDEATION_TEAM_ID,
  ideateResultSchema,
  ideationInputSchema,
  neutraliseMarkers,
  refineResultSchema,
  trendsResultSchema,
  type IdeationAgent,
} from '../../../../common/teams/ideation';
import { openAlexService } from '../../../sources/openalex-service';
import { defineTeam, type PhaseLog } from '../../kit';

/**
 * The Ideation team's declaration (docs/architecture.md §10): its input, each phase's result
 * schema and the OpenAlex service. The phases (one file each) and team.ts build on it.
 */
  label: 'Ideation',
  stage: 'ideation',
export const ideation = defineTeam({
  id: IDEATION_TEAM_ID,
  name: 'Ideation',
  description:
    'Turns an idea, or the economics topics whose publication output grew most, into 3 to 5 ' +
    'ranked research questions grounded in the works retrieved from OpenAlex.',
  input: ideationInputSchema,
  results: {
    trends: trendsResultSchema,
    ideate: ideateResultSchema,
    refine: refineResultSchema,
    contextualize: contextualizeResultSchema,
    finalize: finalizeResultSchema,
  },
  services: { openalex: openAlexService },
});

/** Writes one line of an agent's section: "Refiner: ...", after the work it describes. */
export function say(log: PhaseLog, agent: IdeationAgent, text: string): Promise<void> {
  return log(`${agent}: ${neutraliseMarkers(text)}`);
}

/** Same, as a warning (something was dropped or corrected). */
export function warn(log: PhaseLog, agent: IdeationAgent, text: string): Promise<void> {
  return log.warn(`${agent}: ${neutraliseMarkers(text)}`);
}
