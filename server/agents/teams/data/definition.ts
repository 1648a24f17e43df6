import {
  DATA_PHASE_TABLE,
  DATA_TEAM_ID,
  dataConfigurationSchema,
  dataInputSchema,
} from '../../../../common/teams/data';
import { profilingService } from '../../../engines/profiling/service';
import { dataSourcesService } from '../../../sources/data-sources-service';
import { defineTeam } from '../../kit';

/**
 * The Data team's declaration: its input, configuration, the phase table's results and the two
 * services every phase and route works with (the profiling engine and the data sources).
 */
export const data = defineTeam({
  id: DATA_TEAM_ID,
  name: 'Data Team',
  label: 'Data',
  stage: 'data',
  description:
    'Profiles and analyses a dataset that is uploaded, fetched from a public API, taken from a URL, or already in the project or catalog.',
  input: dataInputSchema,
  configuration: dataConfigurationSchema,
  results: DATA_PHASE_TABLE.results,
  services: { profiling: profilingService, sources: dataSourcesService },
});
