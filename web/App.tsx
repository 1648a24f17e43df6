import { BrowserRouter } from 'react-router';
import { RouteErrorBoundary } from './layouts/RouteErrorBoundary';
import { AppRoutes } from './router';

/**
 * The web app: the routes. The MUI theme and server state are provided per route group
 * (layouts/ThemedOutlet.tsx), so the landing page and the public frame, styled with the theme's
 * CSS variables (theme.css), load no MUI or emotion code.
 */
export function App() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <AppRoutes />
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
