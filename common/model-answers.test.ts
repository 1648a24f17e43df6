import { describe, expect, it } from 'vitest';
import { isBlank, matchAnswers } from './model-answers';

const items = [{ id: 'Q1' }, { id: 'Q2' }, { id: 'Q3' }];
const key = (i: { id: string }) => i.id;
const answerKey = (a: { id: string }) => a.id.toUpperCase();

describe('matchAnswers', () => {
  it('matches answers to items by id, whatever their order', () => {
    const m = matchAnswers(items, [{ id: 'q3' }, { id: 'Q1' }, { id: 'Q2' }], key, answerKey);
    expect(m.by).toBe('id');
    expect(m.matched.map((a) => a?.id)).toEqual(['Q1', 'Q2', 'q3']);
    expect(m.unmatched).toEqual([]);
  });

  it('matches by position when the ids are unusable and the counts agree', () => {
    const answers = [{ id: 'A' }, { id: 'B' }, { id: 'C' }];
    const m = matchAnswers(items, answers, key, answerKey);
    expect(m.by).toBe('position');
    expect(m.matched).toEqual(answers);
    expect(m.unmatched).toEqual([]);
  });

  it('counts a repeated id as unusable', () => {
    const answers = [{ id: 'Q1' }, { id: 'Q1' }, { id: 'Q2' }];
    expect(matchAnswers(items, answers, key, answerKey).matched).toEqual(answers);
  });

  it('leaves items unanswered when the counts differ, keeping the answers it can place', () => {
    const m = matchAnswers(items, [{ id: 'Q2' }, { id: 'Q9' }], key, answerKey);
    expect(m.by).toBe('id');
    expect(m.matched.map((a) => a?.id)).toEqual([undefined, 'Q2', undefined]);
    expect(m.unmatched).toEqual([{ id: 'Q9' }]);
  });

  it('leaves every item unanswered for an empty answer', () => {
    expect(matchAnswers(items, [], key, answerKey).matched).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('takes a missing key as unusable', () => {
    const m = matchAnswers(items, [{ id: '' }, { id: 'Q2' }], key, (a) => a.id || undefined);
    expect(m.matched.map((a) => a?.id)).toEqual([undefined, 'Q2', undefined]);
  });
});

describe('isBlank', () => {
  it('is true only for text that is empty after trimming', () => {
    expect([undefined, null, '', '  \n'].map(isBlank)).toEqual([true, true, true, true]);
    expect(isBlank(' x ')).toBe(false);
  });
});
