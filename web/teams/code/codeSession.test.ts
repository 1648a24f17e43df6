import { describe, expect, it } from 'vitest';
import {
  activeStepOf,
  CODE_STEPS,
  codeEndpoints,
  codeFormOf,
  finalCode,
  readResults,
} from './codeSession';

describe('activeStepOf', () => {
  it('follows the spec: Configuration, the phase running, all done once completed', () => {
    expect(activeStepOf('idle', 0)).toBe(0);
    expect(activeStepOf('processing', 1)).toBe(1);
    expect(activeStepOf('processing', 4)).toBe(4);
    expect(activeStepOf('error', 2)).toBe(2);
    expect(activeStepOf('completed', 4)).toBe(CODE_STEPS.length);
    expect(activeStepOf('completed', 5)).toBe(CODE_STEPS.length);
  });
});

describe('readResults and finalCode', () => {
  const generation = {
    main_code: 'a',
    language: 'python',
    file_name: 'main.py',
    frameworks: [],
    explanation: '',
    execution: null,
    repairs: [],
  };

  it('keeps results that match their schema and drops the rest', () => {
    const r = readResults({ 1: generation, 2: { nonsense: true } });
    expect(r.generation?.main_code).toBe('a');
    expect(r.review).toBeUndefined();
    expect(finalCode(r)).toBe('a');
  });

  it('prefers the optimized code over the generated one', () => {
    const r = readResults({
      1: generation,
      3: { skipped: false, optimized_code: 'b', changes: [], execution: null, repairs: [] },
    });
    expect(finalCode(r)).toBe('b');
  });
});

describe('codeEndpoints', () => {
  it('starts with /develop, polls /status and reads the spec phase numbers', () => {
    expect(codeEndpoints.start!({ requirements: 'x' })).toEqual({
      path: '/api/agents/code-team/develop',
      body: { requirements: 'x' },
    });
    expect(codeEndpoints.status!('a b')).toBe('/api/agents/code-team/status/a%20b');
    expect(codeEndpoints.logs).toBeUndefined();
    expect(codeEndpoints.readStatus!({ nothing: 1 })).toBeUndefined();
  });
});

describe('the form of a reopened Code session', () => {
  it('holds the description, language and mode the session was started with', () => {
    expect(
      codeFormOf({
        input: { requirements: 'Estimate an AR(1) on GDP growth.' },
        configuration: { language: 'r', frameworks: [], workflowMode: 'quick' },
      }),
    ).toEqual({
      requirements: 'Estimate an AR(1) on GDP growth.',
      language: 'r',
      workflowMode: 'quick',
    });
    expect(codeFormOf({ input: { researchQuestion: 'Why?' }, configuration: {} })).toBeUndefined();
  });
});
