import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { scrubUrl, serializeError } from './logging';

describe('scrubUrl', () => {
  it('redacts credentials in the query and keeps the rest', () => {
    expect(scrubUrl('/api/x.csv?token=abc.def&page=2')).toBe(
      '/api/x.csv?token=%5Bredacted%5D&page=2',
    );
    expect(scrubUrl('/ws?access_token=a&refreshToken=b&password=c&api_key=d')).toBe(
      '/ws?access_token=%5Bredacted%5D&refreshToken=%5Bredacted%5D&password=%5Bredacted%5D&api_key=%5Bredacted%5D',
    );
  });

  it('leaves URLs without secrets alone', () => {
    expect(scrubUrl('/api/health')).toBe('/api/health');
    expect(scrubUrl('/api/list?limit=5')).toBe('/api/list?limit=5');
  });
});

describe('serializeError', () => {
  it('drops the values of a failed query but keeps the query', () => {
    const err = new DrizzleQueryError(
      'select * from users where email = $1',
      ['private@uni.example'],
      new Error('boom'),
    );
    const out = serializeError(err);
    expect(JSON.stringify(out)).not.toContain('private@uni.example');
    expect(out.message).toBe('Failed query: select * from users where email = $1');
    expect(out.stack).toContain('Failed query');
    expect(out.stack).toMatch(/\n {4}at /);
  });

  it('keeps a message logged as a string, without the values of a failed query', () => {
    const message = new DrizzleQueryError(
      'select * from users where email = $1',
      ['private@uni.example'],
      new Error('boom'),
    ).message;
    expect(serializeError(message)).toBe('Failed query: select * from users where email = $1');
    expect(serializeError('terminating connection due to administrator command')).toBe(
      'terminating connection due to administrator command',
    );
    expect(serializeError(undefined)).toBeUndefined();
  });

  it('keeps ordinary errors as they are', () => {
    const out = serializeError(new Error('plain'));
    expect(out.message).toBe('plain');
    expect(out.type).toBe('Error');
  });
});
