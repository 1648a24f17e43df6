import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { RequireSession } from './layouts/RequireSession';
import { TEAM_MANIFESTS } from './teams';
import { TeamScopeProvider } from './teams/shared/teamScope';

/**
 * The signed-in areas' routes (/app and /admin), loaded as one lazy chunk by web/router.tsx, so
 * the public pages carry none of it: not the team manifests (their icons and lazy screens), the
 * team scope or the session guard. Rendered as descendant routes under `app/*` and `admin/*`
 * (paths here are relative to those), inside the ServerStateOutlet the router puts around both.
 */
type Page = LazyExoticComponent<ComponentType>;
const page = (load: () => Promise<{ default: ComponentType }>): Page => lazy(load);

const AdminGuard = lazy(() => import('./layouts/AdminGuard'));
const AppShell = page(() => import('./layouts/AppShell'));

const OverviewPage = page(() => import('./pages/app/OverviewPage'));
const AgentWorkflowPage = page(() => import('./pages/app/AgentWorkflowPage'));
const CustomizedWorkflowPage = page(() => import('./pages/app/CustomizedWorkflowPage'));
const DataExplorerPage = page(() => import('./pages/app/DataExplorerPage'));
const ProjectManagerPage = page(() => import('./pages/app/ProjectManagerPage'));
const ProjectPage = page(() => import('./pages/app/ProjectPage'));
const DocumentationPage = page(() => import('./pages/app/DocumentationPage'));
const SettingsPage = page(() => import('./pages/app/SettingsPage'));
const TeamGate = lazy(() => import('./teams/TeamGate').then((m) => ({ default: m.TeamGate })));

const AdminPage = page(() => import('./pages/admin/AdminPage'));

/** A path under the area that no route has goes to the start page, as anywhere else. */
const elsewhere: RouteObject = { path: '*', element: <Navigate to="/" replace /> };

const appRoutes: RouteObject[] = [
  {
    element: (
      <RequireSession>
        <AppShell />
      </RequireSession>
    ),
    children: [
      { index: true, element: <OverviewPage /> },
      { path: 'agent-workflow', element: <AgentWorkflowPage /> },
      { path: 'customized-workflow', element: <CustomizedWorkflowPage /> },
      { path: 'data-explorer', element: <DataExplorerPage /> },
      { path: 'project-manager', element: <ProjectManagerPage /> },
      { path: 'projects/:id', element: <ProjectPage /> },
      // One route per team manifest (web/teams/index.ts), each with its scope: the session and
      // project in the address, shared by the session hook and the frame.
      ...TEAM_MANIFESTS.map((manifest) => ({
        path: manifest.route,
        element: (
          <TeamScopeProvider teamId={manifest.id} teams={TEAM_MANIFESTS}>
            <TeamGate manifest={manifest} />
          </TeamScopeProvider>
        ),
      })),
      { path: 'documentation', element: <DocumentationPage /> },
      { path: 'settings', element: <SettingsPage /> },
    ],
  },
  elsewhere,
];

const adminRoutes: RouteObject[] = [
  {
    element: (
      <AdminGuard>
        <AppShell />
      </AdminGuard>
    ),
    children: [{ index: true, element: <AdminPage /> }],
  },
  elsewhere,
];

/** Everything under /app. */
export function AppArea() {
  return useRoutes(appRoutes);
}

/** Everything under /admin. */
export function AdminArea() {
  return useRoutes(adminRoutes);
}
