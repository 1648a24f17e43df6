import { createContext, useContext } from 'react';
import { TEAM_MANIFESTS } from '.';
import type { TeamManifest } from './manifest';

/**
 * The team screens the pages show: web/teams/index.ts's list, unless a test renders a page inside
 * `<TeamManifestsContext value={...}>` with another list (e.g. with a throw-away team added).
 * Pages read the list through useTeamManifests() rather than importing it, which is what makes
 * that possible without a registry anyone could change at run time.
 */
export const TeamManifestsContext = createContext<readonly TeamManifest[]>(TEAM_MANIFESTS);

export function useTeamManifests(): readonly TeamManifest[] {
  return useContext(TeamManifestsContext);
}
