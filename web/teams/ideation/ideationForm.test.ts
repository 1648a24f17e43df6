import { describe, expect, it } from 'vitest';
import { ideationFormOf } from './ideationSession';

describe('the form of a reopened Ideation session', () => {
  it('holds the idea of a session started from one, and the mode of an automatic one', () => {
    expect(
      ideationFormOf({
        input: { mode: 'human', idea: 'Remote work and wages' },
        configuration: {},
      }),
    ).toEqual({ mode: 'human', idea: 'Remote work and wages' });
    expect(ideationFormOf({ input: { mode: 'automatic' }, configuration: {} })).toEqual({
      mode: 'automatic',
      idea: '',
    });
    expect(ideationFormOf({ input: { researchQuestion: 'Why?' }, configuration: {} })).toBe(
      undefined,
    );
  });
});
