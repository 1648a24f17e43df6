import { describe, expect, it, vi } from 'vitest';
import { decisionOutcome } from './adminMessages';

describe('decisionOutcome', () => {
  it('shows the success texts', async () => {
    const ok = () => Promise.resolve({ success: true as const });
    await expect(decisionOutcome('approved', ok)).resolves.toEqual({
      ok: true,
      text: 'User approved successfully!',
    });
    await expect(decisionOutcome('rejected', ok)).resolves.toEqual({
      ok: true,
      text: 'User rejected successfully!',
    });
  });

  it('shows the server message on failure, or the fallback text', async () => {
    const withMessage = () =>
      Promise.resolve({
        success: false as const,
        error: 'HTTP error! status: 409',
        message: 'User is not pending',
        status: 409,
      });
    const without = () =>
      Promise.resolve({ success: false as const, error: 'HTTP error! status: 500', status: 500 });
    expect((await decisionOutcome('approved', withMessage)).text).toBe('User is not pending');
    expect((await decisionOutcome('approved', without)).text).toBe('Failed to approve user');
    expect((await decisionOutcome('rejected', without)).text).toBe('Failed to reject user');
  });

  it('shows the exception texts when the call throws', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const boom = () => Promise.reject(new Error('boom'));
    expect(await decisionOutcome('approved', boom)).toEqual({
      ok: false,
      text: 'An error occurred while approving user',
    });
    expect((await decisionOutcome('rejected', boom)).text).toBe(
      'An error occurred while rejecting user',
    );
    spy.mockRestore();
  });
});
