import { describe, expect, it } from 'vitest';
import { parseFinalQuestions, type GroundingWork } from '../../../../common/teams/ideation';
import { finalQuestionsLine } from './final-line';
import { checkCitations } from './grounding';
import { questionKey, sharpenQuestion } from './questions';
import {
  growthText,
  MIN_BASELINE_WORKS,
  rankTrendingTopics,
  trendWindow,
  type TopicYearCounts,
} from './trend-discovery';

/** The team's pure rules: trend ranking, question sharpening, citation checks, the final line. */

describe('trend ranking', () => {
  const window = trendWindow(new Date(Date.UTC(2025, 5, 1)));

  it('compares the last three complete years with the three before', () => {
    expect(window).toEqual({ baseline: [2019, 2021], recent: [2022, 2024] });
  });

  const yearly = (byTopic: Record<string, number[]>): TopicYearCounts[] =>
    [2019, 2020, 2021, 2022, 2023, 2024].map((year, i) => ({
      year,
      groups: Object.entries(byTopic)
        .filter(([, counts]) => counts[i]! > 0)
        .map(([id, counts]) => ({
          key: `https://openalex.org/${id}`,
          label: `Topic ${id}`,
          count: counts[i]!,
        })),
    }));

  it('ranks by growth, then recent works, then id; sums by year with gaps as 0', () => {
    const { considered, ranked } = rankTrendingTopics(
      yearly({
        T3: [100, 100, 100, 200, 200, 200], // +100 %
        T1: [50, 50, 50, 100, 100, 100], // +100 %, fewer recent works
        T2: [100, 0, 100, 300, 300, 0], // gap years count 0: 200 -> 600, +200 %
        T4: [300, 300, 300, 150, 150, 150], // shrinking
      }),
      window,
    );
    expect(considered).toBe(4);
    expect(ranked.map((t) => t.id)).toEqual(['T2', 'T3', 'T1', 'T4']);
    expect(ranked[0]).toMatchObject({ recentCount: 600, baselineCount: 200, growth: 2 });
    expect(ranked[0]!.countsByYear).toEqual([
      { year: 2019, count: 100 },
      { year: 2020, count: 0 },
      { year: 2021, count: 100 },
      { year: 2022, count: 300 },
      { year: 2023, count: 300 },
      { year: 2024, count: 0 },
    ]);
    expect(ranked[3]!.growth).toBeCloseTo(-0.5);
  });

  it('leaves out topics with too few baseline works to compare', () => {
    const small = Math.floor(MIN_BASELINE_WORKS / 3) - 1;
    const { considered, ranked } = rankTrendingTopics(
      yearly({ T1: [small, small, small, 900, 900, 900], T2: [20, 20, 20, 30, 30, 30] }),
      window,
    );
    expect(considered).toBe(1);
    expect(ranked.map((t) => t.id)).toEqual(['T2']);
  });

  it('writes growth as a signed percentage', () => {
    expect(growthText(3.5)).toBe('+350%');
    expect(growthText(0)).toBe('+0%');
    expect(growthText(-0.126)).toBe('-13%');
  });
});

describe('sharpening a question', () => {
  it('keeps one question ending in ?, without numbering or markers', () => {
    expect(sharpenQuestion('1. Does trade raise wages. Or not?')).toBe(
      'Does trade raise wages. Or not?',
    );
    expect(sharpenQuestion('Q2) Does trade raise wages? And does it raise prices?')).toBe(
      'Does trade raise wages?',
    );
    expect(sharpenQuestion('How do tariffs affect firm entry.')).toBe(
      'How do tariffs affect firm entry?',
    );
    expect(sharpenQuestion('Does TERMINATE risk Justification: matter?')).toBe(
      'Does Terminate risk matter?',
    );
    expect(sharpenQuestion('Why?')).toBeUndefined();
  });

  it('treats case, spacing and punctuation differences as the same question', () => {
    expect(questionKey('Does trade raise wages?')).toBe(questionKey('does  trade, raise wages'));
  });
});

describe('citations', () => {
  const works = [{ key: 'W1' }, { key: 'W2' }] as GroundingWork[];

  it('keeps retrieved keys and removes the others from the list and the text', () => {
    expect(checkCitations('As in [W1] and [W3], also [w2].', ['W2', 'W5', 'w1'], works)).toEqual({
      text: 'As in [W1] and, also [w2].',
      cited: ['W2', 'W1'],
      removed: 2,
    });
  });
});

describe('the FINAL_QUESTIONS line', () => {
  it('parses back into the questions and justifications it was made from', () => {
    const { line, items } = finalQuestionsLine(
      ['Topic A: 10 works'],
      [
        { question: 'Q one?', justification: 'Because "quoted" reasons.' },
        { question: 'Q two?', justification: '' },
      ],
    );
    expect(items).toEqual([
      'Topic A: 10 works',
      'Q one? Justification: Because "quoted" reasons.',
      'Q two?',
    ]);
    const parsed = parseFinalQuestions([line]);
    expect(parsed).toEqual({
      found: true,
      ok: true,
      items: [
        { question: 'Topic A: 10 works' },
        { question: 'Q one?', justification: 'Because "quoted" reasons.' },
        { question: 'Q two?' },
      ],
    });
  });

  it('shortens the longest justifications until the line fits', () => {
    const questions = Array.from({ length: 5 }, (_, i) => ({
      question: `Question ${i}?`,
      justification: `${'x'.repeat(i === 2 ? 3000 : 600)}`,
    }));
    const { line } = finalQuestionsLine([], questions, 2000);
    expect(line.length).toBeLessThanOrEqual(2000);
    const parsed = parseFinalQuestions([line]);
    if (!parsed.found || !parsed.ok) throw new Error('not parsed');
    expect(parsed.items.map((i) => i.question)).toEqual(questions.map((q) => q.question));
    expect(parsed.items[2]!.justification!.endsWith('…')).toBe(true);
  });
});
