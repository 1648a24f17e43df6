import { describe, expect, it } from 'vitest';
import {
  configToSend,
  defaultStepConfig,
  fieldText,
  moved,
  parseStepJson,
  stepFields,
  stepProblem,
  withField,
} from './stepForms';

const field = (team: string, key: string) => stepFields(team)!.find((f) => f.key === key)!;

describe('a workflow step as a form', () => {
  it('sets a field from what was typed and removes it when blank, so earlier steps feed it', () => {
    const question = field('literature', 'researchQuestion');
    const set = withField({}, question, 'Do minimum wages cut jobs?');
    expect(set).toEqual({ researchQuestion: 'Do minimum wages cut jobs?' });
    expect(withField(set, question, '   ')).toEqual({});
  });

  it('shows a question rank from 1 and keeps the 0-based index the server reads', () => {
    const rank = field('ideation', 'questionIndex');
    const config = withField({ mode: 'human' }, rank, '2');
    expect(config.questionIndex).toBe(1);
    expect(fieldText(rank, config)).toBe('2');
    expect(withField(config, rank, '1.5')).toBe(config);
  });

  it('requires what the team cannot start without, and only where it applies', () => {
    expect(stepProblem('ideation', defaultStepConfig('ideation'))).toBe(
      'Research area or idea is required',
    );
    expect(stepProblem('ideation', { mode: 'automatic' })).toBeUndefined();
    expect(stepProblem('data', defaultStepConfig('data'))).toBe('Dataset is required');
    expect(
      stepProblem('data', { dataSource: 'url', datasetId: 'https://x.test/a.csv' }),
    ).toBeUndefined();
    expect(stepProblem('literature', {})).toBeUndefined();
    expect(stepProblem('a-team-without-form', {})).toBeUndefined();
  });

  it('leaves out what no longer applies (an API source once the source is a URL)', () => {
    expect(
      configToSend('data', { dataSource: 'url', apiSource: 'fred', datasetId: 'https://x.test' }),
    ).toEqual({ dataSource: 'url', datasetId: 'https://x.test' });
    expect(configToSend('ideation', { mode: 'automatic', idea: 'old' })).toEqual({
      mode: 'automatic',
    });
    expect(configToSend('unknown', { anything: 1 })).toEqual({ anything: 1 });
  });

  it('reads the JSON editor only as an object', () => {
    expect(parseStepJson('{"topN": 10}')).toEqual({ config: { topN: 10 } });
    expect(parseStepJson('[1]')).toHaveProperty('error');
    expect(parseStepJson('{"topN": ')).toHaveProperty('error');
  });

  it('moves a step up or down, never past the ends', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});
