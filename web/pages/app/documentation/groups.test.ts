import { describe, expect, it } from 'vitest';
import { DOCUMENT_CATEGORIES } from '../../../../common/documents';
import { DOCUMENT_TABS, documentFilter } from './groups';

describe('document tabs and chips', () => {
  it('puts every category in the Documents tab and each in exactly one other tab', () => {
    const documents = DOCUMENT_TABS.find((t) => t.value === 'documents');
    expect([...(documents?.categories ?? [])].sort()).toEqual([...DOCUMENT_CATEGORIES].sort());
    for (const c of DOCUMENT_CATEGORIES) {
      const holders = DOCUMENT_TABS.filter(
        (t) => t.value !== 'documents' && (t.categories as readonly string[]).includes(c),
      );
      expect(holders, c).toHaveLength(1);
    }
  });

  it('asks the server for one category, or keeps a group itself', () => {
    expect(documentFilter('documents', 'all')).toEqual({});
    expect(documentFilter('documents', 'research_report')).toEqual({ category: 'research_report' });
    expect(documentFilter('data', 'all')).toEqual({ category: 'data_dictionary' });
    expect(documentFilter('models', 'all')).toEqual({
      keep: ['model_documentation', 'code_documentation', 'reproducibility_guide'],
    });
    expect(documentFilter('models', 'code_documentation')).toEqual({
      category: 'code_documentation',
    });
    // A chip outside the tab's group matches nothing rather than everything.
    expect(documentFilter('data', 'research_report')).toEqual({ keep: [] });
  });
});
