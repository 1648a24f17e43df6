import type { TeamDefinition } from '../kit';
import { ideationTeam } from './ideation/team';
import { codeTeam } from './code/team';
import { dataTeam } from './data/team';
import { literatureTeam } from './literature/team';
import { modelTeam } from './model/team';

/**
 * The product's teams: one line per team (docs/architecture.md, "Adding a team"). Each team
 * lives in its own folder here and never imports another team's folder.
 */
export const productTeams: TeamDefinition[] = [
  ideationTeam,
  codeTeam,
  literatureTeam,
  modelTeam,
  dataTeam,
];
