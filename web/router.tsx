import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Outlet, useRoutes, type RouteObject } from 'react-router';
import { FullPageSpinner } from './layouts/FullPageSpinner';
import { RequireSession } from './layouts/RequireSession';
import { TEAM_MANIFESTS } from './teams';
import { TeamScopeProvider } from './teams/shared/teamScope';

/**
 * Every screen is its own chunk (docs/architecture.md §7). Layouts suspend inside their
 * <Outlet/>, so the shell stays on screen while a page's chunk loads.
 *
 * Routes are rendered with useRoutes under a <BrowserRouter>, not a data router: nothing here
 * uses loaders or actions, and the data router would add ~16 KB gzip to every page, the landing
 * page included. Errors are caught by RouteErrorBoundary (App.tsx) instead of errorElement.
 */
type Page = LazyExoticComponent<ComponentType>;
const page = (load: () => Promise<{ default: ComponentType }>): Page => lazy(load);

const PublicLayout = page(() => import('./layouts/PublicLayout'));
const ServerStateOutlet = page(() => import('./api/ServerStateOutlet'));
const AdminGuard = lazy(() => import('./layouts/AdminGuard'));
const AppShell = page(() => import('./layouts/AppShell'));

const LandingPage = page(() => import('./pages/public/LandingPage'));
const LoginPage = page(() => import('./pages/public/LoginPage'));
const RegisterPage = page(() => import('./pages/public/RegisterPage'));
const JoinTeamPage = page(() => import('./pages/public/JoinTeamPage'));
const DemoPage = page(() => import('./pages/public/DemoPage'));

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

export const routes: RouteObject[] = [
  {
    element: (
      <Suspense fallback={<FullPageSpinner />}>
        <Outlet />
      </Suspense>
    ),
    children: [
      {
        element: <PublicLayout />,
        children: [
          // The landing page reads nothing from the API: it stays outside server state.
          { index: true, element: <LandingPage /> },
          {
            element: <ServerStateOutlet />,
            children: [
              { path: 'login', element: <LoginPage /> },
              { path: 'register', element: <RegisterPage /> },
              { path: 'join-team', element: <JoinTeamPage /> },
              { path: 'demo', element: <DemoPage /> },
            ],
          },
        ],
      },
      {
        element: <ServerStateOutlet />,
        children: [
          {
            path: 'app',
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
              // One route per team manifest (web/teams/index.ts), each with its scope: the
              // session and project in the address, shared by the session hook and the frame.
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
          {
            path: 'admin',
            element: (
              <AdminGuard>
                <AppShell />
              </AdminGuard>
            ),
            children: [{ index: true, element: <AdminPage /> }],
          },
        ],
      },
      // Paths some screens link to, sent on to the page that has them.
      { path: 'projects', element: <Navigate to="/app/project-manager" replace /> },
      { path: 'agent-workflow', element: <Navigate to="/app/agent-workflow" replace /> },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** The matched route tree for the current location. */
export function AppRoutes() {
  return useRoutes(routes);
}
