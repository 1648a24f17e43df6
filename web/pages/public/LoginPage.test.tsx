import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import LoginPage from './LoginPage';
import { mockFetch, renderWithApp } from '../../testing/renderApp';

const PENDING =
  'Your account is pending approval by an administrator. You will receive an e-mail when it is approved.';

function renderLogin() {
  return renderWithApp(<LoginPage />, {
    path: '/login',
    routes: [{ path: '/app', element: <p>the app</p> }],
  });
}

describe('LoginPage', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('validates before calling the server', async () => {
    const { calls } = mockFetch({});
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(calls.filter((c) => c.key.includes('/api/auth/login'))).toHaveLength(0);
  });

  it('shows the server message, e.g. pending approval', async () => {
    mockFetch({
      'POST /api/auth/login': () => ({
        status: 403,
        json: { success: false, error: PENDING, message: PENDING },
      }),
    });
    renderLogin();
    await userEvent.type(screen.getByLabelText(/Email/), 'ada@example.org');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByTestId('login-error')).textContent).toBe(PENDING);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('toggles password visibility', async () => {
    mockFetch({});
    renderLogin();
    const input = screen.getByLabelText(/^Password/) as HTMLInputElement;
    expect(input.type).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.type).toBe('text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input.type).toBe('password');
  });

  it('stores the four items and goes to /app on success', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/login': () => ({
        json: {
          success: true,
          message: 'Login successful',
          data: {
            tokens: { accessToken: 'acc', refreshToken: 'ref' },
            user: {
              id: 'u1',
              displayName: 'Ada',
              email: 'ada@example.org',
              role: 'researcher',
              status: 'approved',
            },
          },
        },
      }),
    });
    renderLogin();
    await userEvent.type(screen.getByLabelText(/Email/), ' ADA@example.org ');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('the app')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/auth/login')?.body).toEqual({
      email: 'ada@example.org',
      password: 'secret-password',
    });
    expect(localStorage.getItem('accessToken')).toBe('acc');
    expect(localStorage.getItem('refreshToken')).toBe('ref');
    expect(localStorage.getItem('isAuthenticated')).toBe('true');
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({
      displayName: 'Ada',
      email: 'ada@example.org',
    });
  });
});
