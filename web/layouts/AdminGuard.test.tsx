import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import AdminGuard from './AdminGuard';
import { mockFetch, renderWithApp } from '../testing/renderApp';
import { clearSession, setAuth } from '../api/session';

const user = (role: string) => ({
  success: true,
  data: {
    user: {
      id: 'u1',
      displayName: 'Ada',
      email: 'ada@example.org',
      role,
      status: 'approved',
      reason: null,
      suspended: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
  },
});

function renderGuard() {
  return renderWithApp(
    <AdminGuard>
      <p>admin area</p>
    </AdminGuard>,
    { path: '/admin', routes: [{ path: '/login', element: <p>login page</p> }] },
  );
}

describe('AdminGuard', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('redirects to /login when no auth is stored', async () => {
    mockFetch({});
    renderGuard();
    expect(await screen.findByText('login page')).toBeTruthy();
  });

  it('lets an admin in', async () => {
    setAuth({ accessToken: 'a', refreshToken: 'r' });
    mockFetch({ 'GET /api/auth/profile': () => ({ json: user('admin') }) });
    renderGuard();
    expect(await screen.findByText('admin area')).toBeTruthy();
  });

  it('leaves for /login as soon as the session is cleared (sign-out here or in another tab)', async () => {
    setAuth({ accessToken: 'a', refreshToken: 'r' });
    mockFetch({ 'GET /api/auth/profile': () => ({ json: user('admin') }) });
    renderGuard();
    expect(await screen.findByText('admin area')).toBeTruthy();
    act(() => clearSession());
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(screen.queryByText('admin area')).toBeNull();
  });

  it('refuses a researcher', async () => {
    setAuth({ accessToken: 'a', refreshToken: 'r' });
    mockFetch({ 'GET /api/auth/profile': () => ({ json: user('researcher') }) });
    renderGuard();
    expect(await screen.findByText('Access denied. Admin privileges required.')).toBeTruthy();
    expect(screen.queryByText('admin area')).toBeNull();
  });

  it('asks to log in when the profile cannot be loaded (refresh fails too)', async () => {
    setAuth({ accessToken: 'bad', refreshToken: 'bad' });
    const { calls } = mockFetch({
      'GET /api/auth/profile': () => ({
        status: 401,
        json: { success: false, error: 'x', message: 'x' },
      }),
      'POST /api/auth/refresh': () => ({
        status: 401,
        json: { success: false, error: 'x', message: 'x' },
      }),
    });
    renderGuard();
    expect(await screen.findByText('Please log in to access admin features.')).toBeTruthy();
    expect(calls.map((c) => c.key)).toEqual(['GET /api/auth/profile', 'POST /api/auth/refresh']);
    // The failed refresh removed the stored items.
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('says verification failed when the reply is not a profile', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setAuth({ accessToken: 'a', refreshToken: 'r' });
    mockFetch({ 'GET /api/auth/profile': () => ({ json: { success: true, data: {} } }) });
    renderGuard();
    expect(await screen.findByText('Failed to verify admin status. Please log in.')).toBeTruthy();
    quiet.mockRestore();
  });
});
