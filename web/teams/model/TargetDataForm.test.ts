import { describe, expect, it } from 'vitest';
import { datasetOptions, EMPTY_TARGET_DATA, targetDataOf } from './TargetDataForm';

describe('datasetOptions', () => {
  it("lists the project's datasets first, marked, then the rest of the catalog in order", () => {
    const list = [
      { id: 'a', name: 'CPI' },
      { id: 'b', name: 'GDP' },
      { id: 'c', name: 'Hours' },
    ];
    expect(datasetOptions(list, ['c', 'x'])).toEqual([
      { value: 'c', label: 'Hours (this project)' },
      { value: 'a', label: 'CPI' },
      { value: 'b', label: 'GDP' },
    ]);
    expect(datasetOptions(list, []).map((o) => o.label)).toEqual(['CPI', 'GDP', 'Hours']);
  });
});

describe('targetDataOf', () => {
  it('sends nothing while the target dataset is off', () => {
    expect(targetDataOf(EMPTY_TARGET_DATA)).toEqual({ ok: true, value: undefined });
  });

  it('says what is missing before the server is called', () => {
    const on = { ...EMPTY_TARGET_DATA, enabled: true };
    expect(targetDataOf(on)).toEqual({
      ok: false,
      error: 'Choose the dataset for the target moments',
    });
    expect(targetDataOf({ ...on, datasetId: 'd1' })).toEqual({
      ok: false,
      error: 'Choose a column and a model variable in every row',
    });
  });

  it('builds the request, with the frequency only when chosen', () => {
    const draft = {
      enabled: true,
      datasetId: 'd1',
      frequency: '' as const,
      columns: [{ column: 'realgdp', variable: 'y', transform: 'hp' as const }],
    };
    expect(targetDataOf(draft)).toEqual({
      ok: true,
      value: { datasetId: 'd1', columns: draft.columns },
    });
    expect(targetDataOf({ ...draft, frequency: 'annual' })).toMatchObject({
      value: { frequency: 'annual' },
    });
  });
});
