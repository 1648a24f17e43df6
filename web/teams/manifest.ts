import type { ComponentType, LazyExoticComponent } from 'react';
import type SvgIcon from '@mui/material/SvgIcon';
import type { WorkflowStage } from '../../common/projects';

/**
 * What the app needs to know about a team screen (docs/architecture.md, "Adding a team"): each
 * team folder has a manifest.ts with one of these, listed once in web/teams/index.ts. The router,
 * the navigation, the breadcrumbs, the dashboard launcher and the workflow page read the list
 * (pages through useTeamManifests()); whether a team is ready comes from the server
 * (GET /api/agents/teams), never from here.
 */
export interface TeamManifest {
  /** The runtime's team id, e.g. 'literature'. */
  id: string;
  /** The path segment under /app: `${id}-team`, e.g. 'literature-team'. */
  route: string;
  /** The navigation label, e.g. 'Literature'. */
  label: string;
  /** The team's full name, e.g. 'Literature Review'. */
  name: string;
  /** The research stage the team works in (the workflow page's Research Stages). */
  stage: WorkflowStage;
  icon: typeof SvgIcon;
  badge?: 'New' | 'Beta';
  /** One sentence for the dashboard launcher. */
  description: string;
  /** The screen, loaded lazily (its own chunk). */
  Screen: LazyExoticComponent<ComponentType>;
}

export const teamHref = (m: Pick<TeamManifest, 'route'>) => `/app/${m.route}`;
