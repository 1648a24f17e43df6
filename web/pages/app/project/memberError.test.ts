import { describe, expect, it } from 'vitest';
import { memberErrorOf, UNKNOWN_MEMBER_TEXT } from './memberError';

const failure = (message: string, status?: number) => Object.assign(new Error(message), { status });

describe('memberErrorOf', () => {
  it('explains an unknown or unapproved e-mail address on the e-mail field', () => {
    expect(
      memberErrorOf(failure('email: no approved account uses this e-mail address', 404)),
    ).toEqual({ field: 'email', text: UNKNOWN_MEMBER_TEXT });
  });

  it('makes the field-prefixed server texts sentences on their field', () => {
    expect(memberErrorOf(failure('email: the owner is already part of the project', 400))).toEqual({
      field: 'email',
      text: 'The owner is already part of the project.',
    });
    expect(
      memberErrorOf(
        failure('role: this account has the viewer role and can only be added as a viewer', 400),
      ),
    ).toEqual({
      field: 'role',
      text: 'This account has the viewer role and can only be added as a viewer.',
    });
    expect(
      memberErrorOf(failure('Invalid request in body: email must be a valid e-mail address', 400))
        .field,
    ).toBe('email');
  });

  it('leaves other failures to the general alert', () => {
    expect(memberErrorOf(failure('Only the project owner can manage members', 403))).toEqual({
      field: undefined,
      text: 'Only the project owner can manage members',
    });
  });
});
