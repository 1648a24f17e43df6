import { describe, expect, it } from 'vitest';
import { MODEL_TEAM_BASE } from '../../../common/teams/model';
import {
  activeStepOf,
  checkpointOf,
  MODEL_STEPS,
  modelEndpoints,
  modelFormOf,
  readResults,
  tabForCheckpoint,
} from './modelSession';

describe('Model screen session helpers', () => {
  it('maps status and phase to the stepper (Configuration, three phases, Completed)', () => {
    expect(activeStepOf('idle', 0)).toBe(0);
    expect(activeStepOf('processing', 1)).toBe(1);
    expect(activeStepOf('waiting_for_input', 3)).toBe(3);
    expect(activeStepOf('processing', 4)).toBe(4);
    expect(activeStepOf('completed', 4)).toBe(5);
  });

  it('opens the tab of the checkpoint under review', () => {
    expect(tabForCheckpoint(1)).toBe('Theory');
    expect(tabForCheckpoint(2)).toBe('Model');
    expect(tabForCheckpoint(3)).toBe('Calibration');
    expect(tabForCheckpoint(null)).toBeUndefined();
  });

  it('sends feedback with its checkpoint and starts with develop', () => {
    expect(modelEndpoints.feedback!('s1', 'Approved', 2)).toEqual({
      path: `${MODEL_TEAM_BASE}/feedback`,
      body: { sessionId: 's1', feedback: 'Approved', checkpoint: 2 },
    });
    expect(modelEndpoints.start!({ modelType: 'NK', focus: 'x', periods: 240 }).path).toBe(
      `${MODEL_TEAM_BASE}/develop`,
    );
    expect(modelEndpoints.status!('a b')).toBe(`${MODEL_TEAM_BASE}/status/a%20b`);
  });

  it('reads only results that match their schemas', () => {
    const results = readResults({ 1: { title: 'not a theory result' }, 2: undefined });
    expect(results).toEqual({
      theory: undefined,
      model: undefined,
      calibration: undefined,
      complete: undefined,
    });
    expect(modelEndpoints.readStatus!({ nonsense: true })).toBeUndefined();
  });

  it('takes the stepper and the checkpoint titles from the phase table', () => {
    expect(MODEL_STEPS.map((s) => [s.label, s.requiresHuman])).toEqual([
      ['Configuration', false],
      ['Theoretical Framework', true],
      ['Mathematical Model', true],
      ['Calibration & Estimation', true],
      ['Completed', false],
    ]);
    expect(checkpointOf(2)).toMatchObject({
      key: 'model',
      title: 'Checkpoint 2: Mathematical Model Review',
    });
    expect(checkpointOf(4)).toBeUndefined();
  });

  it('refuses start and feedback replies that are not the shared start reply', () => {
    expect(modelEndpoints.readStart!({ sessionId: 's1' })).toBeUndefined();
    expect(modelEndpoints.readFeedback!({ success: true, sessionId: 's1' })).toBeUndefined();
  });
});

describe('the form of a reopened Model session', () => {
  it('holds the model type, focus, periods and target data', () => {
    const datasetId = '0b5e5a1e-9a43-4d1a-8f36-5d0f4d7b2c11';
    expect(
      modelFormOf({
        input: {
          modelType: 'NK',
          focus: 'Monetary policy shocks',
          periods: 120,
          targetData: { datasetId, columns: [{ column: 'gdp', variable: 'y', transform: 'hp' }] },
        },
        configuration: {},
      }),
    ).toEqual({
      modelType: 'NK',
      focus: 'Monetary policy shocks',
      periodsText: '120',
      targetDraft: {
        enabled: true,
        datasetId,
        frequency: '',
        columns: [{ column: 'gdp', variable: 'y', transform: 'hp' }],
      },
    });
  });

  it('gives an imported .mod file back, without the focus the server named after it', () => {
    expect(
      modelFormOf({
        input: {
          modelType: 'custom',
          focus: 'Model from rbc.mod',
          periods: 200,
          modFile: 'var y;',
          modFileName: 'rbc.mod',
        },
        configuration: {},
      }),
    ).toEqual({
      modelType: 'custom',
      focus: '',
      periodsText: '200',
      modFile: { text: 'var y;', fileName: 'rbc.mod' },
    });
    expect(modelFormOf({ input: { requirements: 'x' }, configuration: {} })).toBeUndefined();
  });
});
