import type { profilingService } from '../../../engines/profiling/service';
import type { dataSourcesService } from '../../../sources/data-sources-service';
import type { TeamRouteKit } from '../../kit';

/** What the Data team's routes get from the kit: sessions, workspaces and its two services. */
export type DataKit = TeamRouteKit<{
  profiling: typeof profilingService;
  sources: typeof dataSourcesService;
}>;
