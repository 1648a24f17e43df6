import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Outlet, useRoutes, type RouteObject } from 'react-router';
import { FullPageSpinner } from './layouts/FullPageSpinner';

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
const ThemedOutlet = page(() => import('./layouts/ThemedOutlet'));
const LandingPage = page(() => import('./pages/public/LandingPage'));
const LoginPage = page(() => import('./pages/public/LoginPage'));
const RegisterPage = page(() => import('./pages/public/RegisterPage'));
const JoinTeamPage = page(() => import('./pages/public/JoinTeamPage'));
const DemoPage = page(() => import('./pages/public/DemoPage'));

// The signed-in areas (/app, /admin) are one lazy chunk with their own routes (web/appRoutes.tsx):
// the team manifests, the team scope and the session guard stay off the public pages.
const AppArea = lazy(() => import('./appRoutes').then((m) => ({ default: m.AppArea })));
const AdminArea = lazy(() => import('./appRoutes').then((m) => ({ default: m.AdminArea })));

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
          // The landing page reads nothing from the API and is built without MUI: it stays outside
          // the MUI theme and server state.
          { index: true, element: <LandingPage /> },
          {
            element: <ThemedOutlet />,
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
        element: <ThemedOutlet />,
        children: [
          { path: 'app/*', element: <AppArea /> },
          { path: 'admin/*', element: <AdminArea /> },
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
