import { describe, expect, it } from 'vitest';
import { registerRequestSchema } from '../../../common/auth';
import { fieldErrors } from './formErrors';
import { mailtoDraft } from './mailto';
import { waitingListBody } from './DemoPage';

describe('mailtoDraft', () => {
  it('addresses the contact e-mail with the subject and the filled fields', () => {
    const href = mailtoDraft('Join Our Team - Interest', [
      ['Name', ' Ada '],
      ['Email', 'ada@example.org'],
      ['Message', ''],
    ]);
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('contact@econagents.org');
    expect(url.searchParams.get('subject')).toBe('Join Our Team - Interest');
    expect(url.searchParams.get('body')).toBe('Name: Ada\n\nEmail: ada@example.org');
  });

  it('has no body when nothing was filled', () => {
    expect(mailtoDraft('Demo Request', [])).toBe(
      'mailto:contact@econagents.org?subject=Demo%20Request',
    );
  });
});

describe('waitingListBody', () => {
  it('trims, and leaves out an empty affiliation and interest area', () => {
    expect(
      waitingListBody({ name: ' Ada ', email: ' a@b.org ', affiliation: '  ', interestArea: '' }),
    ).toEqual({ name: 'Ada', email: 'a@b.org' });
    expect(
      waitingListBody({
        name: 'Ada',
        email: 'a@b.org',
        affiliation: ' Uni ',
        interestArea: 'Econometrics',
      }),
    ).toEqual({ name: 'Ada', email: 'a@b.org', affiliation: 'Uni', interestArea: 'Econometrics' });
  });
});

describe('fieldErrors', () => {
  const labels = { displayName: 'Display name', email: 'Email', password: 'Password' };
  it('reports one readable message per field from the shared schema', () => {
    const { data, errors } = fieldErrors(
      registerRequestSchema,
      { displayName: ' ', email: 'nope', password: 'short' },
      labels,
    );
    expect(data).toBeUndefined();
    expect(errors).toEqual({
      displayName: 'Display name is required',
      email: 'Email must be a valid e-mail address',
      password: 'Password must be at least 8 characters',
    });
  });

  it('returns the parsed data when valid', () => {
    const { data, errors } = fieldErrors(
      registerRequestSchema,
      { displayName: 'Ada', email: 'ADA@Example.org', password: 'long enough' },
      labels,
    );
    expect(errors).toEqual({});
    expect(data).toMatchObject({ email: 'ada@example.org', displayName: 'Ada' });
  });
});
