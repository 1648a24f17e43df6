import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RegisterPage from './RegisterPage';
import LoginPage from './LoginPage';
import { mockFetch, renderWithApp } from '../../testing/renderApp';

const REGISTERED =
  'Registration successful. Your account is pending approval by an administrator; you will receive an e-mail when it is approved.';

function renderRegister() {
  return renderWithApp(<RegisterPage />, {
    path: '/register',
    routes: [{ path: '/login', element: <LoginPage /> }],
  });
}

function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(new RegExp(`^${label}`)), { target: { value } });
  }
}

describe('RegisterPage', () => {
  afterEach(cleanup);

  it('has a 3-row reason field and a link to Sign In', () => {
    mockFetch({});
    renderRegister();
    const reason = screen.getByLabelText(/^Reason/) as HTMLTextAreaElement;
    expect(reason.tagName).toBe('TEXTAREA');
    expect(reason.getAttribute('rows')).toBe('3');
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
  });

  it('checks the fields like the server does, and that the passwords match', async () => {
    const { calls } = mockFetch({});
    renderRegister();
    fill({ Email: 'not-an-email', Password: 'short', 'Confirm password': 'other' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Display name is required')).toBeTruthy();
    expect(screen.getByText('Email must be a valid e-mail address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('shows the server message on conflict', async () => {
    mockFetch({
      'POST /api/auth/register': () => ({
        status: 409,
        json: {
          success: false,
          error: 'An account with this email already exists',
          message: 'An account with this email already exists',
        },
      }),
    });
    renderRegister();
    fill({
      'Display name': 'Ada',
      Email: 'ada@example.org',
      Password: 'long enough',
      'Confirm password': 'long enough',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByTestId('register-error')).textContent).toBe(
      'An account with this email already exists',
    );
  });

  it('goes to /login and shows the server message on success', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/register': () => ({
        status: 201,
        json: { success: true, message: REGISTERED },
      }),
    });
    renderRegister();
    fill({
      'Display name': ' Ada Lovelace ',
      Email: 'ada@example.org',
      Password: 'long enough',
      'Confirm password': 'long enough',
      Reason: 'Macro research',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByTestId('login-notice')).textContent).toBe(REGISTERED);
    expect(calls[0]?.body).toEqual({
      displayName: 'Ada Lovelace',
      email: 'ada@example.org',
      password: 'long enough',
      reason: 'Macro research',
    });
  });
});
