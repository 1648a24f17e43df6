import {
  CODE_TEAM_ID,
  codeConfigurationSchema,
  codeInputSchema,
  codePhases,
  type CodePhaseKey,
} from '../../../../common/teams/code';
import { profilingService } from '../../../engines/profiling/service';
import { sandboxService } from '../../../engines/sandbox';
import { defineTeam } from '../../kit';
import { editorRunsService } from './editor-runs';

/**
 * The Code team's declaration: input, configuration, phase results (its table), the sandbox, and
 * the profiling service, whose stored datasets a program may be given as CSV files, and the
 * store of the editor's last run for each session (what Download Package carries).
 */
export const codeDefinition = defineTeam({
  id: CODE_TEAM_ID,
  // The runtime says 'the Code team', 'Code session completed': the name is the team's own word.
  name: 'Code',
  label: 'Code',
  stage: 'coding',
  description: 'Generates, reviews, optimizes and tests research code that runs in a sandbox.',
  input: codeInputSchema,
  configuration: codeConfigurationSchema,
  results: codePhases.results,
  services: { sandbox: sandboxService, profiling: profilingService, editorRuns: editorRunsService },
});

/** A phase's row of the phase table: its number and name (the stepper shows the same). */
export function phaseRow(key: CodePhaseKey) {
  return codePhases.rows[codePhases.numberOf(key) - 1]!;
}
