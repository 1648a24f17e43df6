import { runServer } from '../../server/serve';
import { runtimeTestTeam } from './runtime-test-team';

/** The server as `npm run serve` runs it, plus the runtime's internal test team (tests only). */
runServer({ extraTeams: [runtimeTestTeam] });
