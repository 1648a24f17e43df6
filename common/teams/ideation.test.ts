import { describe, expect, it } from 'vitest';
import {
  agentLine,
  agentPanels,
  FINAL_QUESTIONS_MARKER,
  hasTerminated,
  ideationLogsReplySchema,
  ideationPhases,
  neutraliseMarkers,
  noveltyOf,
  parseFinalQuestions,
  questionItemText,
  sectionStartOf,
  splitAutomaticItems,
  splitJustification,
  startIdeationRequestSchema,
} from './ideation';
import { readPhaseResults } from './shared';

const fq = (items: unknown) => `${FINAL_QUESTIONS_MARKER} ${JSON.stringify(items)}`;

describe('the Justification: split', () => {
  it('splits at the word and trims both sides', () => {
    expect(splitJustification('Does X raise Y? Justification: because Z.')).toEqual({
      question: 'Does X raise Y?',
      justification: 'because Z.',
    });
  });

  it('drops separators written before the word', () => {
    expect(splitJustification('Does X raise Y? - Justification: Z').question).toBe(
      'Does X raise Y?',
    );
    expect(splitJustification('Does X raise Y? | Justification: Z').question).toBe(
      'Does X raise Y?',
    );
  });

  it('leaves a question without the word whole, and an empty justification out', () => {
    expect(splitJustification('  Does X raise Y?  ')).toEqual({ question: 'Does X raise Y?' });
    expect(splitJustification('Does X raise Y? Justification:   ')).toEqual({
      question: 'Does X raise Y?',
    });
  });

  it('splits at the first occurrence only, and is case-sensitive', () => {
    expect(splitJustification('Q? Justification: A. Justification: B.')).toEqual({
      question: 'Q?',
      justification: 'A. Justification: B.',
    });
    expect(splitJustification('Q? justification: lower case')).toEqual({
      question: 'Q? justification: lower case',
    });
  });

  it('round-trips with questionItemText', () => {
    const text = questionItemText('Why?', 'Because.');
    expect(text).toBe('Why? Justification: Because.');
    expect(splitJustification(text)).toEqual({ question: 'Why?', justification: 'Because.' });
    expect(questionItemText('Why?')).toBe('Why?');
  });
});

describe('the FINAL_QUESTIONS line', () => {
  it('is not found when no line begins with the marker', () => {
    expect(parseFinalQuestions([])).toEqual({ found: false });
    expect(parseFinalQuestions(['Finalizer: about to write FINAL_QUESTIONS: soon'])).toEqual({
      found: false,
    });
  });

  it('reads a JSON list of strings, each split at Justification:', () => {
    const parsed = parseFinalQuestions([
      'Finalizer: ranked 2',
      fq(['A? Justification: one', 'B?']),
      'TERMINATE',
    ]);
    expect(parsed).toEqual({
      found: true,
      ok: true,
      items: [{ question: 'A?', justification: 'one' }, { question: 'B?' }],
    });
  });

  it('accepts objects with question/text and justification, and leading spaces', () => {
    const parsed = parseFinalQuestions([
      `  ${fq([{ question: 'A?', justification: 'why' }, { text: 'B? Justification: so' }])}`,
    ]);
    expect(parsed).toEqual({
      found: true,
      ok: true,
      items: [
        { question: 'A?', justification: 'why' },
        { question: 'B?', justification: 'so' },
      ],
    });
  });

  it('uses the last such line', () => {
    const parsed = parseFinalQuestions([fq(['old?']), fq(['new?'])]);
    expect(parsed).toMatchObject({ ok: true, items: [{ question: 'new?' }] });
  });

  it('reports malformed JSON, a non-list and bad items as not ok', () => {
    const broken = parseFinalQuestions([`${FINAL_QUESTIONS_MARKER} ["A?", "B?"`]);
    expect(broken.found && !broken.ok && broken.error).toBeTruthy();
    expect(parseFinalQuestions([`${FINAL_QUESTIONS_MARKER} {"a":1}`])).toEqual({
      found: true,
      ok: false,
      error: 'not a JSON list',
    });
    expect(parseFinalQuestions([fq(['A?', 42])])).toEqual({
      found: true,
      ok: false,
      error: 'item 2 is not a question',
    });
    expect(parseFinalQuestions([fq(['A?', '  '])])).toMatchObject({ ok: false });
  });
});

describe('TERMINATE and the automatic split', () => {
  it('is complete once any line contains the marker', () => {
    expect(hasTerminated(['Ideator: a', 'Refiner: b'])).toBe(false);
    expect(hasTerminated(['Ideator: a', 'TERMINATE'])).toBe(true);
    expect(hasTerminated(['Finalizer: done. TERMINATE'])).toBe(true);
    expect(hasTerminated(['terminate'])).toBe(false);
  });

  it('takes the first 5 items as topics and the rest as questions', () => {
    const items = ['t1', 't2', 't3', 't4', 't5', 'q1?', 'q2?', 'q3?'];
    expect(splitAutomaticItems(items)).toEqual({
      topics: ['t1', 't2', 't3', 't4', 't5'],
      questions: ['q1?', 'q2?', 'q3?'],
    });
    expect(splitAutomaticItems(['t1', 't2'])).toEqual({ topics: ['t1', 't2'], questions: [] });
  });

  it('keeps user and model text from ending the run or faking the final line', () => {
    expect(neutraliseMarkers('TERMINATE the contract\nnow')).toBe('Terminate the contract now');
    expect(neutraliseMarkers('FINAL_QUESTIONS: ["x"]')).toBe('Final questions: ["x"]');
    expect(hasTerminated([`Ideator: ${neutraliseMarkers('TERMINATE')}`])).toBe(false);
  });
});

describe('the agent panels', () => {
  it('reads agent lines and the runtime phase lines as section starts', () => {
    expect(agentLine('Refiner: Q1. Why?')).toEqual({ agent: 'Refiner', text: 'Q1. Why?' });
    expect(agentLine('Started Ideation Team session: 4 phases')).toBeUndefined();
    expect(sectionStartOf('Starting phase 2/4: Refiner')).toBe('Refiner');
    expect(sectionStartOf('Starting phase 1/5: Ideator (trend discovery)')).toBe('Ideator');
    expect(sectionStartOf('Starting phase 1/4: Something else')).toBeUndefined();
  });

  it('has the first panel active while generating before any section, others pending', () => {
    expect(agentPanels([], true).map((p) => p.state)).toEqual([
      'active',
      'pending',
      'pending',
      'pending',
    ]);
    expect(agentPanels([], false).map((p) => p.state)).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
  });

  it('completes a panel once the next section begins, and all at TERMINATE', () => {
    const logs = ['Starting phase 1/4: Ideator', 'Ideator: 1. A?', 'Starting phase 2/4: Refiner'];
    const panels = agentPanels(logs, true);
    expect(panels.map((p) => p.state)).toEqual(['completed', 'active', 'pending', 'pending']);
    expect(panels[0]!.lines).toEqual(['1. A?']);
    expect(panels[1]!.lines).toEqual([]);
    const done = agentPanels([...logs, 'Finalizer: ranked', fq(['A?']), 'TERMINATE'], true);
    expect(done.map((p) => p.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(done[3]!.lines).toEqual(['ranked']);
  });

  it('never moves back to an earlier agent', () => {
    const panels = agentPanels(['Contextualizer: x', 'Ideator: late line'], true);
    expect(panels.map((p) => p.state)).toEqual(['completed', 'completed', 'active', 'pending']);
    expect(panels[0]!.lines).toEqual(['late line']);
  });
});

describe('the start request', () => {
  it('needs a non-blank idea in human mode (also the legacy body), none in automatic', () => {
    expect(startIdeationRequestSchema.safeParse({ idea: 'wages' }).success).toBe(true);
    expect(startIdeationRequestSchema.safeParse({ idea: '  ', mode: 'human' }).success).toBe(false);
    expect(startIdeationRequestSchema.safeParse({}).success).toBe(false);
    expect(startIdeationRequestSchema.safeParse({ mode: 'automatic' }).success).toBe(true);
    expect(startIdeationRequestSchema.safeParse({ mode: 'other', idea: 'x' }).success).toBe(false);
    expect(startIdeationRequestSchema.safeParse({ idea: 'x'.repeat(4001) }).success).toBe(false);
  });
});

describe('novelty from counts', () => {
  it('bands the number of matching works', () => {
    expect(noveltyOf(0)).toBe('little studied');
    expect(noveltyOf(99)).toBe('little studied');
    expect(noveltyOf(100)).toBe('moderately studied');
    expect(noveltyOf(999)).toBe('moderately studied');
    expect(noveltyOf(1000)).toBe('heavily studied');
  });
});

describe('the phase table', () => {
  it('lists the phases in run order, with the names the runtime writes in its log', () => {
    expect(ideationPhases.keys).toEqual([
      'trends',
      'ideate',
      'refine',
      'contextualize',
      'finalize',
    ]);
    expect(Object.keys(ideationPhases.results)).toEqual(ideationPhases.keys);
    // "Starting phase n/m: <name>" opens the agent's panel: every name begins with an agent.
    for (const row of ideationPhases.rows)
      expect(sectionStartOf(`Starting phase 1/4: ${row.name}`)).toBeDefined();
  });

  it("reads a human-mode session's results by key, leaving out those of another shape", () => {
    // Human mode has no trends phase: its phase 1 is the Ideator, so numbers would mislead.
    const results = readPhaseResults(ideationPhases, [
      { key: 'ideate', result: { source: 'idea', candidates: ['A?', 'B?', 'C?'] } },
      { key: 'refine', result: { questions: [], candidatesDropped: 0 } },
    ]);
    expect(results.ideate?.candidates).toEqual(['A?', 'B?', 'C?']);
    expect(results.refine).toBeUndefined();
    expect(results.trends).toBeUndefined();
  });
});

describe('the logs reply', () => {
  const reply = {
    success: true,
    sessionId: '11111111-1111-4111-8111-111111111111',
    mode: 'human',
    status: 'processing',
    phase: 2,
    error: null,
    logs: ['Ideator: 1. A?'],
    topics: null,
    grounding: null,
    finalQuestions: null,
    projectId: null,
  };

  it("is the shared logs reply with the session's state and results", () => {
    expect(ideationLogsReplySchema.parse(reply)).toEqual(reply);
  });

  it('refuses a reply without the state the screen stops polling on', () => {
    const { status: _status, ...withoutStatus } = reply;
    expect(ideationLogsReplySchema.safeParse(withoutStatus).success).toBe(false);
    expect(ideationLogsReplySchema.safeParse({ ...reply, logs: 'one line' }).success).toBe(false);
  });
});
