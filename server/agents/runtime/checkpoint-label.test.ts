import { describe, expect, it } from 'vitest';
import { checkpointLabel } from './runner';

describe('checkpointLabel', () => {
  it('names the checkpoint once when the title already starts with "Checkpoint"', () => {
    expect(checkpointLabel(1, 'Checkpoint 1: Items Review')).toBe('Checkpoint 1: Items Review');
    expect(`${checkpointLabel(1, 'Checkpoint 1: Items Review')} is waiting`).not.toMatch(
      /Checkpoint 1 \(Checkpoint 1/,
    );
    expect(checkpointLabel(2, 'checkpoint two')).toBe('checkpoint two');
  });

  it('adds the number to a title that does not say it', () => {
    expect(checkpointLabel(2, 'Draft Review')).toBe('Checkpoint 2: Draft Review');
    expect(checkpointLabel(null, 'Draft Review')).toBe('Draft Review');
  });

  it('does not take a word that only starts like "Checkpoint" for it', () => {
    expect(checkpointLabel(3, 'Checkpointing plan')).toBe('Checkpoint 3: Checkpointing plan');
  });
});
