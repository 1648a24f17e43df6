import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useHasSession } from '../api/session';

/** /app needs a stored session; without one (or once it is cleared) the user goes to /login. */
export function RequireSession({ children }: { children: ReactNode }) {
  const hasSession = useHasSession();
  const location = useLocation();
  if (!hasSession) {
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
  return children;
}
