import type SvgIcon from '@mui/material/SvgIcon';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import TimelineOutlined from '@mui/icons-material/TimelineOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import { CUSTOMIZED_WORKFLOW } from '../../common/constants';
import { teamHref, type TeamManifest } from '../teams/manifest';

/**
 * The shell's navigation: sections, their items with icons and badges, and the labels the
 * breadcrumbs use for each path segment. The AI Research Teams section and the teams' crumbs come
 * from the team manifests the shell is given (web/teams/index.ts's list).
 */
/** The Customized Workflow's screen: chains of team steps run on a project. */
export const CUSTOMIZED_WORKFLOW_PATH = '/app/customized-workflow';

export interface NavItem {
  label: string;
  to: string;
  icon: typeof SvgIcon;
  badge?: 'New' | 'Beta';
  /** Other path prefixes that count as this item (e.g. a project page under Project Manager). */
  alsoActiveFor?: string[];
}

export interface NavSection {
  id: string;
  title: string;
  /** Dashboard, Projects and AI Research Teams start expanded. */
  defaultOpen: boolean;
  items: NavItem[];
}

export function navSections(teams: readonly TeamManifest[]): NavSection[] {
  return [
    {
      id: 'dashboard',
      title: 'Dashboard',
      defaultOpen: true,
      items: [
        { label: 'Overview', to: '/app', icon: DashboardOutlined },
        // Every session of the user's teams, live (the customized workflow has its own screen).
        { label: 'Agent Workflow', to: '/app/agent-workflow', icon: TimelineOutlined },
      ],
    },
    {
      id: 'projects',
      title: 'Projects',
      defaultOpen: true,
      items: [
        {
          label: 'Project Manager',
          to: '/app/project-manager',
          icon: FolderOutlined,
          alsoActiveFor: ['/app/projects/'],
        },
      ],
    },
    {
      id: 'teams',
      title: 'AI Research Teams',
      defaultOpen: true,
      items: [
        ...teams.map((m) => ({
          label: m.label,
          to: teamHref(m),
          icon: m.icon,
          ...(m.badge ? { badge: m.badge } : {}),
        })),
        {
          label: CUSTOMIZED_WORKFLOW.name,
          to: CUSTOMIZED_WORKFLOW_PATH,
          icon: AccountTreeOutlined,
          badge: 'Beta',
        },
      ],
    },
    {
      id: 'resources',
      title: 'Resources',
      defaultOpen: false,
      items: [
        { label: 'Data Explorer', to: '/app/data-explorer', icon: TravelExploreOutlined },
        { label: 'Documentation', to: '/app/documentation', icon: DescriptionOutlined },
        { label: 'Settings', to: '/app/settings', icon: SettingsOutlined },
      ],
    },
  ];
}

export function isItemActive(item: NavItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === item.to) return true;
  return (item.alsoActiveFor ?? []).some((prefix) => path.startsWith(prefix));
}

const SEGMENT_LABELS: Record<string, { label: string; to?: string }> = {
  app: { label: 'Dashboard', to: '/app' },
  admin: { label: 'Administration', to: '/admin' },
  'agent-workflow': { label: 'Agent Workflow' },
  'customized-workflow': { label: CUSTOMIZED_WORKFLOW.name },
  'data-explorer': { label: 'Data Explorer' },
  'project-manager': { label: 'Project Manager' },
  projects: { label: 'Projects', to: '/app/project-manager' },
  documentation: { label: 'Documentation' },
  settings: { label: 'Settings' },
};

export interface Crumb {
  label: string;
  /** Absent for the current page. */
  to?: string;
}

/**
 * Breadcrumbs for a shell path: /app/projects/42 -> Dashboard / Projects / Project; a team's
 * screen is '<label> Team'.
 */
export function breadcrumbsFor(pathname: string, teams: readonly TeamManifest[]): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = segments.map((segment, i) => {
    const team = teams.find((m) => m.route === segment);
    const known = team ? { label: `${team.label} Team` } : SEGMENT_LABELS[segment];
    const parent = segments[i - 1];
    const label = known?.label ?? (parent === 'projects' ? 'Project' : segment);
    const to = known?.to ?? `/${segments.slice(0, i + 1).join('/')}`;
    return { label, to };
  });
  if (crumbs.length === 1 && segments[0] === 'app') crumbs.push({ label: 'Overview' });
  const last = crumbs[crumbs.length - 1];
  if (last) delete last.to;
  return crumbs;
}

/** Up to two initials of a display name; 'User' when there is no name. */
export function initialsOf(displayName: string | undefined | null): string {
  const words = (displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'User';
  return words
    .slice(0, 2)
    .map((w) => Array.from(w)[0]?.toUpperCase() ?? '')
    .join('');
}
