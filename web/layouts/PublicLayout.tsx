import { Suspense, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { CONTACT_EMAIL } from '../../common/constants';
import { useHasSession } from '../api/session';
import { useVersion, versionLabel } from '../api/version';
import { FullPageSpinner } from './FullPageSpinner';
import { BrandMark } from './BrandMark';
import { Glyph } from './glyphs';
import { PublicSiteMenu } from './PublicSiteMenu';
import './public.css';

const PUBLIC_LINKS = [
  { label: 'Join the Team', to: '/join-team' },
  { label: 'Request a Demo', to: '/demo' },
];

/**
 * The frame of the public pages: top bar with the main links, the page, and a footer. Plain
 * elements styled over the theme's CSS variables (public.css): the landing route, which renders
 * only this frame and its page, loads no MUI or emotion code (issue 26: its JavaScript budget).
 */
export default function PublicLayout() {
  const signedIn = useHasSession();
  const version = useVersion();
  const { pathname } = useLocation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const accountLinks = signedIn
    ? [{ label: 'Open the App', to: '/app', primary: true }]
    : [
        { label: 'Sign In', to: '/login', primary: false },
        { label: 'Sign Up', to: '/register', primary: true },
      ];

  return (
    <div className="ea-frame">
      <header className="ea-appbar">
        <div className="ea-container ea-container--lg">
          <div className="ea-toolbar">
            <BrandMark to="/" />
            <div className="ea-spacer" />
            <nav aria-label="Site" className="ea-site-nav">
              {PUBLIC_LINKS.map((l) => (
                <RouterLink
                  key={l.to}
                  to={l.to}
                  className="ea-btn ea-btn--inherit"
                  aria-current={pathname === l.to ? 'page' : undefined}
                >
                  {l.label}
                </RouterLink>
              ))}
              {accountLinks.map((l) => (
                <RouterLink
                  key={l.to}
                  to={l.to}
                  className={`ea-btn ${l.primary ? 'ea-btn--contained' : 'ea-btn--outlined'}`}
                  aria-current={pathname === l.to ? 'page' : undefined}
                >
                  {l.label}
                </RouterLink>
              ))}
            </nav>
            <button
              type="button"
              className="ea-icon-btn ea-menu-button"
              aria-label="Open site menu"
              aria-haspopup="menu"
              aria-controls={menuAnchor ? 'public-menu' : undefined}
              aria-expanded={Boolean(menuAnchor)}
              onClick={(e) => setMenuAnchor(e.currentTarget)}
            >
              <Glyph name="Menu" />
            </button>
            <PublicSiteMenu
              id="public-menu"
              anchorEl={menuAnchor}
              links={[...PUBLIC_LINKS, ...accountLinks]}
              onClose={() => setMenuAnchor(null)}
            />
          </div>
        </div>
      </header>

      <main id="main-content" className="ea-main">
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </main>

      <footer className="ea-footer">
        <div className="ea-container ea-container--lg ea-footer-row">
          <div>
            <h6 className="ea-t ea-t-subtitle2">EconAgents</h6>
            <p className="ea-t ea-t-body2 ea-t-secondary">
              An open, non-profit platform for economic research with teams of AI agents.
            </p>
          </div>
          <nav aria-label="Footer" className="ea-footer-links">
            <RouterLink to="/join-team" className="ea-link">
              Join the Team
            </RouterLink>
            <RouterLink to="/demo" className="ea-link">
              Request a Demo
            </RouterLink>
            <a href={`mailto:${CONTACT_EMAIL}`} className="ea-link">
              Contact
            </a>
            {/* Served by the server, not a client route: a plain link. */}
            <a href="/docs/api" className="ea-link">
              API reference
            </a>
          </nav>
          <span className="ea-t ea-t-caption ea-t-secondary">{versionLabel(version)}</span>
        </div>
      </footer>
    </div>
  );
}
