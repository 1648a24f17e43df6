import { runWorker } from '../../server/worker-process';
import { runtimeTestTeam } from './runtime-test-team';

/** A worker as `npm run worker` runs it, plus the runtime's internal test team (tests only). */
runWorker({ extraTeams: [runtimeTestTeam] });
