import { describe, expect, it } from 'vitest';
import { createDatasetRequestSchema } from '../../../../common/datasets';
import { parseFields, toCreateRequest } from './AddDatasetDialog';

describe('Add dataset form', () => {
  it('reads one field per line as name: type: description', () => {
    expect(
      parseFields('gdp: number: GDP, current US$\n\n  year \n: nameless\nnote: text: a: b'),
    ).toEqual([
      { name: 'gdp', type: 'number', description: 'GDP, current US$' },
      { name: 'year', type: '', description: '' },
      { name: 'note', type: 'text', description: 'a: b' },
    ]);
  });

  it('builds a request the server schema accepts', () => {
    const request = toCreateRequest({
      name: '  CPI  ',
      source: 'fred',
      dataType: 'time_series',
      description: '',
      fields: 'cpi: number',
      recordCount: '',
      start: '1947-01-01',
      end: '',
      format: 'api',
      license: '',
      integrationLevel: 'full',
      citation: '',
      hasFullText: false,
      apiAvailable: true,
    });
    expect(request).toMatchObject({
      name: 'CPI',
      recordCount: null,
      dateRange: { start: '1947-01-01', end: null },
      metadata: { apiAvailable: true },
    });
    expect(createDatasetRequestSchema.safeParse(request).success).toBe(true);
  });
});
