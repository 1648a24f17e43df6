import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { User } from '../../../common/auth';
import { UsersTable } from './UsersTable';

const base: User = {
  id: 'u1',
  displayName: 'Ada',
  email: 'ada@example.org',
  role: 'researcher',
  status: 'approved',
  suspended: false,
  reason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('UsersTable suspension', () => {
  afterEach(cleanup);

  it('offers Suspend for other approved accounts and Lift for suspended ones', () => {
    const onSuspend = vi.fn();
    const users: User[] = [
      base,
      { ...base, id: 'u2', displayName: 'Bob', email: 'bob@example.org', suspended: true },
      { ...base, id: 'me', displayName: 'Me', email: 'me@example.org', role: 'admin' },
      { ...base, id: 'u3', displayName: 'Pat', email: 'pat@example.org', status: 'pending' },
    ];
    render(
      <UsersTable
        users={users}
        busyUser={null}
        onDecide={() => undefined}
        onEdit={() => undefined}
        onSuspend={onSuspend}
        currentUserId="me"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Suspend Ada' }));
    expect(onSuspend).toHaveBeenLastCalledWith(users[0], true);
    fireEvent.click(screen.getByRole('button', { name: 'Lift the suspension of Bob' }));
    expect(onSuspend).toHaveBeenLastCalledWith(users[1], false);
    expect(screen.getByText('suspended')).toBeTruthy();
    // Not for one's own account, and not for an account that is not approved.
    expect(screen.queryByRole('button', { name: 'Suspend Me' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Suspend Pat' })).toBeNull();
  });
});
