import { Suspense, useEffect, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import Logout from '@mui/icons-material/Logout';
import { DRAWER_WIDTH } from '../../common/constants';
import { useSessionUser } from '../api/session';
import { useVersion, versionLabel } from '../api/version';
import { LoadingSkeleton } from '../components/LoadingSkeleton';
import { useSavedThemeMode } from '../components/useSavedThemeMode';
import { useTeamManifests } from '../teams/useTeamManifests';
import { breadcrumbsFor, type Crumb } from './navigation';
import { AccountMenu } from './shell/AccountMenu';
import { NavDrawerContent } from './shell/NavDrawerContent';
import { NotificationsMenu } from './shell/NotificationsMenu';
import { ShellSearch } from './shell/ShellSearch';
import { useSignOut } from './shell/useSignOut';

/**
 * The signed-in application frame: a 280 px navigation drawer (permanent from
 * md up, temporary below with a menu button), a top bar with breadcrumbs, search, notifications,
 * the account menu and a sign-out button that is always visible, and the page in the middle.
 */
export default function AppShell() {
  const user = useSessionUser();
  const version = useVersion();
  useSavedThemeMode();
  const { pathname } = useLocation();
  const { signOut, signingOut } = useSignOut();
  const [mobileOpen, setMobileOpen] = useState(false);
  const teams = useTeamManifests();
  const crumbs = breadcrumbsFor(pathname, teams);
  const isAdmin = user?.role === 'admin';

  const pageTitle = crumbs[crumbs.length - 1]?.label ?? 'EconAgents';
  useEffect(() => {
    document.title = `${pageTitle} · EconAgents`;
  }, [pageTitle]);

  const drawerBody = (mobile: boolean) => (
    <NavDrawerContent
      isAdmin={isAdmin}
      versionLabel={versionLabel(version)}
      idPrefix={mobile ? 'mobile-nav' : 'nav'}
      onNavigate={mobile ? () => setMobileOpen(false) : undefined}
      top={
        mobile ? (
          <ShellSearch id="shell-search-mobile" onSearched={() => setMobileOpen(false)} />
        ) : undefined
      }
    />
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Link
        href="#main-content"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: (t) => t.zIndex.tooltip,
          bgcolor: 'background.paper',
          px: 2,
          py: 1,
          borderRadius: 1,
          '&:focus': { top: 8 },
        }}
      >
        Skip to main content
      </Link>
      <AppBar
        position="fixed"
        color="inherit"
        elevation={0}
        sx={{
          width: { md: `calc(100% - ${DRAWER_WIDTH}px)` },
          ml: { md: `${DRAWER_WIDTH}px` },
          borderBottom: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
        }}
      >
        <Toolbar sx={{ gap: 1 }}>
          <IconButton
            color="inherit"
            edge="start"
            aria-label="Open navigation"
            aria-controls="mobile-navigation"
            aria-expanded={mobileOpen}
            onClick={() => setMobileOpen(true)}
            sx={{ display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <ShellBreadcrumbs crumbs={crumbs} />
          </Box>
          <Box sx={{ display: { xs: 'none', md: 'block' } }}>
            <ShellSearch />
          </Box>
          <NotificationsMenu />
          <AccountMenu user={user} onSignOut={signOut} />
          <Tooltip title="Sign out">
            <span>
              <Button
                color="inherit"
                onClick={signOut}
                disabled={signingOut}
                aria-label="Sign out"
                startIcon={<Logout />}
                sx={{
                  minWidth: 0,
                  ml: 0.5,
                  '& .MuiButton-startIcon': { mr: { xs: 0, lg: 1 }, ml: { xs: 0, lg: -0.5 } },
                }}
              >
                <Box component="span" sx={{ display: { xs: 'none', lg: 'inline' } }}>
                  Sign out
                </Box>
              </Button>
            </span>
          </Tooltip>
        </Toolbar>
      </AppBar>

      <Box sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
        <Drawer
          id="mobile-navigation"
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          slotProps={{ paper: { 'aria-label': 'Navigation' } }}
          sx={{
            display: { xs: 'block', md: 'none' },
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          {drawerBody(true)}
        </Drawer>
        <Drawer
          variant="permanent"
          open
          sx={{
            display: { xs: 'none', md: 'block' },
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          {drawerBody(false)}
        </Drawer>
      </Box>

      <Box
        component="main"
        id="main-content"
        tabIndex={-1}
        sx={{
          flexGrow: 1,
          minWidth: 0,
          width: { md: `calc(100% - ${DRAWER_WIDTH}px)` },
          px: { xs: 2, sm: 3, lg: 4 },
          pb: 6,
          outline: 'none',
        }}
      >
        <Toolbar />
        <Box sx={{ pt: { xs: 2, md: 3 } }}>
          <Suspense fallback={<LoadingSkeleton variant="page" label="Loading page" />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}

/** Full trail from sm up; on a phone only the current page's name fits next to the buttons. */
function ShellBreadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  const current = crumbs[crumbs.length - 1]?.label ?? '';
  return (
    <>
      <Typography noWrap sx={{ display: { xs: 'block', sm: 'none' }, fontWeight: 600 }}>
        {current}
      </Typography>
      <Breadcrumbs
        aria-label="Breadcrumb"
        maxItems={4}
        itemsAfterCollapse={2}
        sx={{
          display: { xs: 'none', sm: 'block' },
          '& ol': { flexWrap: 'nowrap' },
          '& li': { minWidth: 0 },
          '& li:last-of-type': { flexShrink: 0 },
        }}
      >
        {crumbs.map((crumb, i) =>
          crumb.to ? (
            <Link
              key={`${crumb.label}-${i}`}
              component={RouterLink}
              to={crumb.to}
              underline="hover"
              color="inherit"
              noWrap
            >
              {crumb.label}
            </Link>
          ) : (
            <Typography
              key={`${crumb.label}-${i}`}
              color="textPrimary"
              aria-current="page"
              noWrap
              sx={{ fontWeight: 600 }}
            >
              {crumb.label}
            </Typography>
          ),
        )}
      </Breadcrumbs>
    </>
  );
}
