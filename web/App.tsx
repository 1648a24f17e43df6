import { BrowserRouter } from 'react-router';
import { ThemeModeProvider } from './components/ThemeModeProvider';
import { RouteErrorBoundary } from './layouts/RouteErrorBoundary';
import { AppRoutes } from './router';

/** The web app: theme and mode, and the routes (server state is provided per route group). */
export function App() {
  return (
    <ThemeModeProvider>
      <BrowserRouter>
        <RouteErrorBoundary>
          <AppRoutes />
        </RouteErrorBoundary>
      </BrowserRouter>
    </ThemeModeProvider>
  );
}
