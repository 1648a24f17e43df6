export { ideationTeam } from './team';
