import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import { CONTACT_EMAIL } from '../../common/constants';
import { useHasSession } from '../api/session';
import { useVersion, versionLabel } from '../api/version';
import { FullPageSpinner } from './FullPageSpinner';
import { BrandMark } from './BrandMark';

const PublicSiteMenu = lazy(() => import('./PublicSiteMenu'));

const PUBLIC_LINKS = [
  { label: 'Join the Team', to: '/join-team' },
  { label: 'Request a Demo', to: '/demo' },
];

/** The frame of the public pages: top bar with the main links, the page, and a footer. */
export default function PublicLayout() {
  const signedIn = useHasSession();
  const version = useVersion();
  const { pathname } = useLocation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first tap on, so the menu keeps its closing transition afterwards.
  const [menuWanted, setMenuWanted] = useState(false);
  const accountLinks = signedIn
    ? [{ label: 'Open the App', to: '/app', primary: true }]
    : [
        { label: 'Sign In', to: '/login', primary: false },
        { label: 'Sign Up', to: '/register', primary: true },
      ];

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar
        position="sticky"
        color="inherit"
        elevation={0}
        sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
      >
        <Container maxWidth="lg">
          <Toolbar disableGutters sx={{ gap: 1 }}>
            <BrandMark to="/" />
            <Box sx={{ flex: 1 }} />
            <Box
              component="nav"
              aria-label="Site"
              sx={{ display: { xs: 'none', sm: 'flex' }, gap: 1, alignItems: 'center' }}
            >
              {PUBLIC_LINKS.map((l) => (
                <Button
                  key={l.to}
                  component={RouterLink}
                  to={l.to}
                  color="inherit"
                  aria-current={pathname === l.to ? 'page' : undefined}
                >
                  {l.label}
                </Button>
              ))}
              {accountLinks.map((l) => (
                <Button
                  key={l.to}
                  component={RouterLink}
                  to={l.to}
                  variant={l.primary ? 'contained' : 'outlined'}
                  aria-current={pathname === l.to ? 'page' : undefined}
                >
                  {l.label}
                </Button>
              ))}
            </Box>
            <IconButton
              sx={{ display: { sm: 'none' } }}
              aria-label="Open site menu"
              aria-haspopup="menu"
              aria-controls={menuAnchor ? 'public-menu' : undefined}
              aria-expanded={Boolean(menuAnchor)}
              onClick={(e) => {
                setMenuWanted(true);
                setMenuAnchor(e.currentTarget);
              }}
            >
              <MenuIcon />
            </IconButton>
            {menuWanted && (
              <Suspense fallback={null}>
                <PublicSiteMenu
                  anchorEl={menuAnchor}
                  links={[...PUBLIC_LINKS, ...accountLinks]}
                  onClose={() => setMenuAnchor(null)}
                />
              </Suspense>
            )}
          </Toolbar>
        </Container>
      </AppBar>

      <Box component="main" id="main-content" sx={{ flex: 1 }}>
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </Box>

      <Box
        component="footer"
        sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
      >
        <Container maxWidth="lg" sx={{ py: 4 }}>
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            sx={{ justifyContent: 'space-between', alignItems: { md: 'center' } }}
          >
            <Box>
              <Typography variant="subtitle2">EconAgents</Typography>
              <Typography variant="body2" color="text.secondary">
                An open, non-profit platform for economic research with teams of AI agents.
              </Typography>
            </Box>
            <Box
              component="nav"
              aria-label="Footer"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 3 }}
            >
              <Link component={RouterLink} to="/join-team" color="inherit">
                Join the Team
              </Link>
              <Link component={RouterLink} to="/demo" color="inherit">
                Request a Demo
              </Link>
              <Link href={`mailto:${CONTACT_EMAIL}`} color="inherit">
                Contact
              </Link>
              {/* Served by the server, not a client route: a plain link. */}
              <Link href="/docs/api" color="inherit">
                API reference
              </Link>
            </Box>
            <Typography variant="caption" color="text.secondary">
              {versionLabel(version)}
            </Typography>
          </Stack>
        </Container>
      </Box>
    </Box>
  );
}
