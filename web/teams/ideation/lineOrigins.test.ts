import { describe, expect, it } from 'vitest';
import { lineOrigin } from './lineOrigins';

describe('lineOrigin', () => {
  it("marks the model's own lines and the computed ones, and leaves the agents' notes alone", () => {
    expect(lineOrigin('Ideator', '1. Do payments raise conservation?')).toBe('model');
    expect(lineOrigin('Ideator', 'Trending topic 1: AI in economics: 1,350 works')).toBe(
      'computed',
    );
    expect(lineOrigin('Ideator', 'Proposed 4 candidate questions from your idea')).toBeUndefined();
    expect(lineOrigin('Refiner', 'Q2. How do indicators predict outcomes? (search: x)')).toBe(
      'model',
    );
    expect(lineOrigin('Refiner', 'Kept 3 questions from 4 candidates')).toBeUndefined();
    expect(lineOrigin('Contextualizer', 'Q1 ties to contract theory. Payments [W1].')).toBe(
      'model',
    );
    expect(
      lineOrigin('Contextualizer', 'Q1: 5,400 works in OpenAlex match "food prices poverty"'),
    ).toBe('computed');
    expect(
      lineOrigin('Contextualizer', 'Q2: the model supplied no theory or context'),
    ).toBeUndefined();
    expect(lineOrigin('Finalizer', '1. Q? Justification: because')).toBe('model');
    expect(lineOrigin('Finalizer', 'Ranked 3 of 3 questions')).toBeUndefined();
  });
});
