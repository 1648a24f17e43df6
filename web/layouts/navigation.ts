import { TEAM_MANIFESTS } from '../teams';
import { teamHref } from '../teams/manifest';

/**
 * The shell's navigation (platform.md §2): sections, their items and badges, and the labels the
 * breadcrumbs use for each path segment.
 */
export interface NavItem {
  label: string;
  to: string;
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

export const NAV_SECTIONS: NavSection[] = [
  {
    id: 'dashboard',
    title: 'Dashboard',
    defaultOpen: true,
    items: [{ label: 'Overview', to: '/app' }],
  },
  {
    id: 'projects',
    title: 'Projects',
    defaultOpen: true,
    items: [
      { label: 'Project Manager', to: '/app/project-manager', alsoActiveFor: ['/app/projects/'] },
    ],
  },
  {
    id: 'teams',
    title: 'AI Research Teams',
    defaultOpen: true,
    items: [
      ...TEAM_MANIFESTS.map((m) => ({
        label: m.label,
        to: teamHref(m),
        ...(m.badge ? { badge: m.badge } : {}),
      })),
      { label: 'Customized Workflow', to: '/app/agent-workflow', badge: 'Beta' },
    ],
  },
  {
    id: 'resources',
    title: 'Resources',
    defaultOpen: false,
    items: [
      { label: 'Data Explorer', to: '/app/data-explorer' },
      { label: 'Documentation', to: '/app/documentation' },
      { label: 'Settings', to: '/app/settings' },
    ],
  },
];

export function isItemActive(item: NavItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === item.to) return true;
  return (item.alsoActiveFor ?? []).some((prefix) => path.startsWith(prefix));
}

const SEGMENT_LABELS: Record<string, { label: string; to?: string }> = {
  app: { label: 'Dashboard', to: '/app' },
  admin: { label: 'Administration', to: '/admin' },
  'agent-workflow': { label: 'Customized Workflow' },
  'data-explorer': { label: 'Data Explorer' },
  'project-manager': { label: 'Project Manager' },
  projects: { label: 'Projects', to: '/app/project-manager' },
  ...Object.fromEntries(TEAM_MANIFESTS.map((m) => [m.route, { label: `${m.label} Team` }])),
  documentation: { label: 'Documentation' },
  settings: { label: 'Settings' },
};

export interface Crumb {
  label: string;
  /** Absent for the current page. */
  to?: string;
}

/** Breadcrumbs for a shell path: /app/projects/42 -> Dashboard / Projects / Project. */
export function breadcrumbsFor(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = segments.map((segment, i) => {
    const known = SEGMENT_LABELS[segment];
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

/** Up to two initials of a display name; 'User' when there is no name (platform.md §2). */
export function initialsOf(displayName: string | undefined | null): string {
  const words = (displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'User';
  return words
    .slice(0, 2)
    .map((w) => Array.from(w)[0]?.toUpperCase() ?? '')
    .join('');
}
