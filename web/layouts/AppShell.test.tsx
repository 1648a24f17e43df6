import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AppShell from './AppShell';
import { mockFetch, renderWithApp } from '../testing/renderApp';
import { setAuth, setUser } from '../api/session';

function signIn(user: { displayName: string; email: string; role?: 'admin' | 'researcher' }) {
  setAuth({ accessToken: 'acc', refreshToken: 'ref' });
  setUser({ id: 'u1', role: 'researcher', ...user });
}

function renderShell(path = '/app') {
  return renderWithApp(<AppShell />, {
    path,
    pattern: '/app/*',
    routes: [{ path: '/login', element: <p>login page</p> }],
  });
}

const SESSION = '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f';
const notificationGroups = {
  success: true,
  data: {
    unreadCount: 2,
    total: 2,
    limit: 20,
    offset: 0,
    groups: [
      {
        key: SESSION,
        sessionId: SESSION,
        count: 3,
        unreadCount: 2,
        latest: {
          id: 'n1',
          kind: 'session_waiting',
          title: 'Literature review needs your input',
          message: 'Checkpoint 2 is waiting.',
          link: '/app/literature-team',
          sessionId: SESSION,
          read: false,
          createdAt: new Date().toISOString(),
        },
      },
      {
        key: 'n2',
        count: 1,
        unreadCount: 0,
        latest: {
          id: 'n2',
          kind: 'account_approved',
          title: 'Account approved',
          message: 'Welcome!',
          read: true,
          createdAt: new Date(Date.now() - 3_600_000).toISOString(),
        },
      },
    ],
  },
};

describe('AppShell', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('shows the navigation with badges, Resources collapsed, and the version', async () => {
    mockFetch({ 'GET /version.json': () => ({ json: { version: '1.2.3', prefix: 'Beta' } }) });
    signIn({ displayName: 'Ada Lovelace', email: 'ada@example.org' });
    renderShell();
    const nav = screen.getAllByRole('navigation', { name: 'Main navigation' })[0]!;
    const teams = within(nav).getByRole('list', { name: 'AI Research Teams' });
    expect(
      within(teams)
        .getByRole('link', { name: /Customized Workflow/ })
        .getAttribute('href'),
    ).toBe('/app/customized-workflow');
    expect(within(teams).getAllByText('New')).toHaveLength(3);
    expect(within(teams).getByText('Beta')).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Settings' })).toBeNull();
    await userEvent.click(within(nav).getByRole('button', { name: 'Resources' }));
    expect(within(nav).getByRole('link', { name: 'Settings' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Administration' })).toBeNull();
    expect((await screen.findAllByText('Beta 1.2.3')).length).toBeGreaterThan(0);
    expect(screen.getByTestId('account-avatar').textContent).toBe('AL');
  });

  it('falls back to the default version and shows User without a name', async () => {
    mockFetch({});
    signIn({ displayName: '', email: 'x@example.org' });
    renderShell();
    expect((await screen.findAllByText('Demo Version 0.0.1')).length).toBeGreaterThan(0);
    expect(screen.getByTestId('account-avatar').textContent).toBe('User');
  });

  it('links admins to /admin', () => {
    mockFetch({});
    signIn({ displayName: 'Root', email: 'root@example.org', role: 'admin' });
    renderShell();
    const nav = screen.getAllByRole('navigation', { name: 'Main navigation' })[0]!;
    expect(within(nav).getByRole('link', { name: 'Administration' }).getAttribute('href')).toBe(
      '/admin',
    );
  });

  it('searches projects on Enter', async () => {
    mockFetch({});
    signIn({ displayName: 'Ada', email: 'ada@example.org' });
    const { router } = renderShell();
    const box = screen.getAllByRole('searchbox', { name: 'Search projects' })[0]!;
    fireEvent.change(box, { target: { value: 'labour supply' } });
    fireEvent.submit(box.closest('form')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/project-manager'));
    expect(router.state.location.search).toBe('?search=labour%20supply');
  });

  it('lists notifications one entry per session with counts and marks a session read when opened', async () => {
    const { calls } = mockFetch({
      'GET /api/notifications/groups': () => ({ json: notificationGroups }),
      [`POST /api/notifications/sessions/${SESSION}/read`]: () => ({
        json: { success: true, data: { unreadCount: 0 } },
      }),
    });
    signIn({ displayName: 'Ada', email: 'ada@example.org' });
    const { router } = renderShell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await userEvent.click(bell);
    const menu = await screen.findByRole('menu', { name: 'Notifications' });
    expect(within(menu).getAllByRole('menuitem')).toHaveLength(2);
    expect(within(menu).getByText('Account approved')).toBeTruthy();
    expect(within(menu).getByText(/3 notifications, 2 unread/)).toBeTruthy();
    await userEvent.click(within(menu).getByText('Literature review needs your input'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/literature-team'));
    expect(calls.some((c) => c.key === `POST /api/notifications/sessions/${SESSION}/read`)).toBe(
      true,
    );
  });

  it('shows who is signed in and signs out: revoke, clear the four items, go to /login', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/logout': () => ({ json: { success: true, message: 'Signed out' } }),
    });
    signIn({ displayName: 'Ada Lovelace', email: 'ada@example.org' });
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: /^Account menu/ }));
    const menu = await screen.findByRole('menu', { name: 'Account' });
    expect(screen.getByTestId('account-name').textContent).toBe('Ada Lovelace');
    expect(screen.getByTestId('account-email').textContent).toBe('ada@example.org');
    expect(within(menu).getByText('Send Feedback').closest('a')?.getAttribute('href')).toMatch(
      /^mailto:contact@econagents\.org\?subject=/,
    );
    await userEvent.click(within(menu).getByText('Sign Out'));
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/auth/logout')?.body).toEqual({
      refreshToken: 'ref',
    });
    for (const key of ['accessToken', 'refreshToken', 'user', 'isAuthenticated']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  });
});
