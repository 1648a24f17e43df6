import { describe, expect, it } from 'vitest';
import {
  cleaningFeedback,
  DATA_COMPLETED_PHASE,
  DATA_PHASE_TABLE,
  DATA_STEPS,
  dataPhaseRow,
  dataResultsFileName,
  parseCleaningFeedback,
} from './data';
import { readPhaseResults } from './shared';

const defaults = { imputation: 'mean', outliers: 'z-score' } as const;

describe('cleaning requests at the Data Profiling checkpoint', () => {
  it('reads the JSON the screen writes, filling what it leaves out from Settings', () => {
    const text = cleaningFeedback({ imputation: 'knn', outliers: 'iqr', outlierAction: 'cap' });
    expect(text.startsWith('Clean {')).toBe(true);
    expect(parseCleaningFeedback(text, defaults)).toEqual({
      imputation: 'knn',
      outliers: 'iqr',
      outlierAction: 'cap',
      dropDuplicates: true,
      dropEmptyColumns: true,
    });
    expect(parseCleaningFeedback('Clean {}', defaults)).toMatchObject({
      imputation: 'mean',
      outliers: 'z-score',
    });
  });

  it('reads the words of free text, and keeps the Settings for what it does not name', () => {
    expect(
      parseCleaningFeedback('Please impute the median and cap outliers by IQR', defaults),
    ).toMatchObject({
      imputation: 'median',
      outliers: 'iqr',
      outlierAction: 'cap',
      dropDuplicates: true,
    });
    expect(
      parseCleaningFeedback('keep duplicates, no imputation, keep outliers', defaults),
    ).toMatchObject({
      imputation: 'none',
      outliers: 'none',
      dropDuplicates: false,
    });
    expect(parseCleaningFeedback('looks fine but clean it', defaults)).toMatchObject({
      imputation: 'mean',
      outliers: 'z-score',
      outlierAction: 'remove',
    });
  });

  it('names the JSON download with the date', () => {
    expect(dataResultsFileName(new Date('2030-02-03T10:00:00Z'))).toBe(
      'data-analysis-2030-02-03.json',
    );
  });
});

describe('the Data team phase table', () => {
  it('numbers the four phases in run order, with the profile review as the one checkpoint', () => {
    expect(DATA_PHASE_TABLE.keys).toEqual(['source', 'loading', 'profiling', 'analysis']);
    expect(DATA_PHASE_TABLE.numberOf('profiling')).toBe(3);
    expect(dataPhaseRow('analysis')).toMatchObject({ number: 4, name: 'Statistical Analysis' });
    expect(DATA_PHASE_TABLE.rows.filter((r) => r.checkpoint !== null).map((r) => r.key)).toEqual([
      'profiling',
    ]);
    expect(DATA_STEPS).toEqual([
      'Data Source',
      'Data Loading',
      'Data Profiling',
      'Statistical Analysis',
      'Completed',
    ]);
    expect(DATA_COMPLETED_PHASE).toBe(4);
  });

  it('reads results by phase and leaves out what does not match its schema', () => {
    const loading = { datasetId: 'd1', name: 'mroz', rows: 3, columns: [], dropped: [] };
    const read = readPhaseResults(DATA_PHASE_TABLE, [
      { key: 'loading', result: loading },
      { key: 'analysis', result: { analysisType: 'nonsense' } },
    ]);
    expect(read).toEqual({ loading });
  });

  it('refuses an unknown phase key', () => {
    expect(() => dataPhaseRow('nonsense' as 'source')).toThrow(/unknown phase/);
  });
});
