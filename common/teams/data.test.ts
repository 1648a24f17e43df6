import { describe, expect, it } from 'vitest';
import { cleaningFeedback, dataResultsFileName, parseCleaningFeedback } from './data';

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
