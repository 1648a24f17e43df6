import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLogout } from '../../api/auth';

/** Revokes the refresh token, removes the four stored items and goes to /login. */
export function useSignOut() {
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = useCallback(() => {
    logout.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) });
  }, [logout, navigate]);
  return { signOut, signingOut: logout.isPending };
}
