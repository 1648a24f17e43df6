import { useMemo } from 'react';
import { CUSTOMIZED_WORKFLOW } from '../../../../common/constants';
import type { WorkflowStage } from '../../../../common/projects';
import { CUSTOMIZED_WORKFLOW_PATH } from '../../../layouts/navigation';
import { teamHref, type TeamManifest } from '../../../teams/manifest';
import { useTeamManifests } from '../../../teams/useTeamManifests';

/** What the pages need to name and link a team by its id, from the team manifests. */
export interface TeamDirectory {
  /** The team screens, in navigation order. */
  manifests: readonly TeamManifest[];
  /** The display name ('literature' -> 'Literature Review'); the id itself if unknown. */
  name(teamId: string): string;
  /** The team's screen; the customized workflow has its own. */
  path(teamId: string): string;
  /** A session's screen, opened on that session. */
  sessionPath(teamId: string, sessionId: string): string;
  /** Whether the app has a screen for this team (the runtime's test team has none). */
  hasScreen(teamId: string): boolean;
  /** The ids of the teams that work in a research stage, in navigation order. */
  inStage(stage: WorkflowStage): string[];
}

export function teamDirectory(manifests: readonly TeamManifest[]): TeamDirectory {
  const byId = new Map(manifests.map((m) => [m.id, m]));
  const path = (teamId: string) => {
    if (teamId === CUSTOMIZED_WORKFLOW.id) return CUSTOMIZED_WORKFLOW_PATH;
    const manifest = byId.get(teamId);
    // A team without a screen: the route its screen would have (the app's "not found" page).
    return manifest ? teamHref(manifest) : `/app/${teamId}-team`;
  };
  return {
    manifests,
    name: (teamId) =>
      teamId === CUSTOMIZED_WORKFLOW.id
        ? CUSTOMIZED_WORKFLOW.name
        : (byId.get(teamId)?.name ?? teamId),
    path,
    sessionPath: (teamId, sessionId) =>
      `${path(teamId)}?sessionId=${encodeURIComponent(sessionId)}`,
    hasScreen: (teamId) => byId.has(teamId),
    inStage: (stage) => manifests.filter((m) => m.stage === stage).map((m) => m.id),
  };
}

/** The directory of the team manifests in context (web/teams/index.ts's list by default). */
export function useTeamDirectory(): TeamDirectory {
  const manifests = useTeamManifests();
  return useMemo(() => teamDirectory(manifests), [manifests]);
}
