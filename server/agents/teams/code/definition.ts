import {
  CODE_TEAM_ID,
  codeConfigurationSchema,
  codeInputSchema,
  codePhases,
  type CodePhaseKey,
} from '../../../../common/teams/code';
import { sandboxService } from '../../../engines/sandbox';
import { defineTeam } from '../../kit';

/** The Code team's declaration: input, configuration, phase results (its table), the sandbox. */
export const codeDefinition = defineTeam({
  id: CODE_TEAM_ID,
  name: 'Code Team',
  label: 'Code',
  stage: 'coding',
  description: 'Generates, reviews, optimizes and tests research code that runs in a sandbox.',
  input: codeInputSchema,
  configuration: codeConfigurationSchema,
  results: codePhases.results,
  services: { sandbox: sandboxService },
});

/** A phase's row of the phase table: its number and name (the stepper shows the same). */
export function phaseRow(key: CodePhaseKey) {
  return codePhases.rows[codePhases.numberOf(key) - 1]!;
}
