import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, Navigate, useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { fetchProfile } from '../api/auth';
import { isFailure } from '../api/client';
import { getAuth, useHasSession } from '../api/session';
import { FullPageSpinner } from './FullPageSpinner';

/** The three texts the guard shows instead of the admin area, word for word. */
export const ADMIN_GUARD_MESSAGES = {
  notLoggedIn: 'Please log in to access admin features.',
  notAdmin: 'Access denied. Admin privileges required.',
  failed: 'Failed to verify admin status. Please log in.',
} as const;

export type AdminCheck =
  { allowed: true } | { allowed: false; reason: keyof typeof ADMIN_GUARD_MESSAGES };

/**
 * Loads the profile and reads its role. A reply the server refused (401, 403, 404) means the
 * profile could not be loaded; a network failure or a reply of the wrong shape is an exception.
 */
export async function checkAdmin(signal?: AbortSignal): Promise<AdminCheck> {
  try {
    const reply = await fetchProfile(signal);
    if (isFailure(reply)) {
      return { allowed: false, reason: reply.status === undefined ? 'failed' : 'notLoggedIn' };
    }
    const role = reply.data.user.role;
    return role === 'admin' ? { allowed: true } : { allowed: false, reason: 'notAdmin' };
  } catch (err) {
    if (signal?.aborted) throw err;
    console.error('Failed to verify admin status', err);
    return { allowed: false, reason: 'failed' };
  }
}

/** Wraps /admin: entry only for a signed-in admin (role read from GET /api/auth/profile). */
export default function AdminGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  // Only the state at entry decides the redirect: a session cleared by a failed refresh during
  // the check shows the guard's message instead.
  const [hadAuth] = useState(() => getAuth() !== undefined);
  // Once in, signing out (here or in another tab) leaves the admin area at once.
  const hasSession = useHasSession();
  const check = useQuery({
    queryKey: ['auth', 'admin-check'],
    queryFn: ({ signal }) => checkAdmin(signal),
    enabled: hadAuth,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

  if (!hadAuth) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (check.isPending) return <FullPageSpinner label="Checking admin access" />;
  const result: AdminCheck = check.data ?? { allowed: false, reason: 'failed' };
  if (result.allowed) return hasSession ? children : <Navigate to="/login" replace />;
  return <AdminDenied reason={result.reason} />;
}

function AdminDenied({ reason }: { reason: keyof typeof ADMIN_GUARD_MESSAGES }) {
  const signedIn = reason === 'notAdmin';
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, maxWidth: 480, width: '100%' }}>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <AdminPanelSettingsOutlined color="primary" sx={{ fontSize: 48 }} aria-hidden />
          <Typography variant="h5" component="h1">
            Administration
          </Typography>
          <Alert
            severity={signedIn ? 'warning' : 'error'}
            sx={{ width: '100%', textAlign: 'left' }}
          >
            {ADMIN_GUARD_MESSAGES[reason]}
          </Alert>
          <Stack direction="row" spacing={1}>
            {signedIn ? (
              <Button component={RouterLink} to="/app" variant="contained">
                Back to the app
              </Button>
            ) : (
              <Button component={RouterLink} to="/login" variant="contained">
                Sign in
              </Button>
            )}
            <Button component={RouterLink} to="/">
              Start page
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Box>
  );
}
