import { describe, expect, it } from 'vitest';
import { DOCUMENT_CATEGORIES } from '../../../../common/documents';
import { DOCUMENT_TABS, documentCategories } from './groups';

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

  it("asks the server for the chip's category or the tab's group", () => {
    expect(documentCategories('documents', 'all')).toBeUndefined();
    expect(documentCategories('documents', 'research_report')).toEqual(['research_report']);
    expect(documentCategories('data', 'all')).toEqual(['data_dictionary']);
    expect(documentCategories('models', 'all')).toEqual([
      'model_documentation',
      'code_documentation',
      'reproducibility_guide',
    ]);
    expect(documentCategories('models', 'code_documentation')).toEqual(['code_documentation']);
    // A chip left over from another tab stays within this tab's group.
    expect(documentCategories('data', 'research_report')).toEqual(['data_dictionary']);
  });
});
