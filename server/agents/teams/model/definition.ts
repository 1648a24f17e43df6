import {
  MODEL_TEAM_ID,
  modelConfigurationSchema,
  modelInputSchema,
  modelPhases,
  type ModelPhaseKey,
} from '../../../../common/teams/model';
import { modelEngineService } from '../../../engines/models/service';
import { profilingService } from '../../../engines/profiling/service';
import { defineTeam } from '../../kit';

/**
 * The Model team's declaration: input, configuration, phase results (its table) and services.
 * No phase requires a language model: without one the canonical model of the chosen type runs
 * end to end and only the adaptation to the focus is missing (each result says so).
 */
export const modelDefinition = defineTeam({
  id: MODEL_TEAM_ID,
  name: 'Model Team',
  label: 'Model',
  stage: 'modeling',
  description:
    'Develops an economic model in three reviewed stages: theory, equations, calibration.',
  input: modelInputSchema,
  configuration: modelConfigurationSchema,
  results: modelPhases.results,
  // profiling: the stored Parquet copies of catalog datasets, read for target moments.
  services: { engine: modelEngineService, profiling: profilingService },
});

/** A phase's row of the phase table: its number, name and checkpoint title. */
export function phaseRow(key: ModelPhaseKey) {
  return modelPhases.rows[modelPhases.numberOf(key) - 1]!;
}

/** The title of the checkpoint a phase ends at (the table gives one to each reviewed phase). */
export function checkpointTitle(key: ModelPhaseKey): string {
  const { checkpoint } = phaseRow(key);
  if (checkpoint === null) throw new Error(`Model team: phase ${key} has no checkpoint`);
  return checkpoint;
}
