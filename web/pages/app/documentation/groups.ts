import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  type DocumentCategory,
} from '../../../../common/documents';

/** The Documentation tabs and the categories each groups (platform.md §2). */
export const DOCUMENT_TABS = [
  { value: 'documents', label: 'Documents', categories: [...DOCUMENT_CATEGORIES] },
  { value: 'data', label: 'Data Dictionaries', categories: ['data_dictionary'] },
  {
    value: 'models',
    label: 'Models & Code',
    categories: ['model_documentation', 'code_documentation', 'reproducibility_guide'],
  },
  {
    value: 'reports',
    label: 'Research Reports',
    categories: ['research_report', 'literature_review', 'validation_report'],
  },
] as const satisfies ReadonlyArray<{
  value: string;
  label: string;
  categories: readonly DocumentCategory[];
}>;
export type DocumentTab = (typeof DOCUMENT_TABS)[number]['value'];

/** The chips: 'All Documents' and every category, in the spec's order. */
export const CATEGORY_CHIPS: ReadonlyArray<{ value: 'all' | DocumentCategory; label: string }> = [
  { value: 'all', label: 'All Documents' },
  ...DOCUMENT_CATEGORIES.map((c) => ({ value: c, label: DOCUMENT_CATEGORY_LABELS[c] })),
];

export function tabCategories(tab: DocumentTab): readonly DocumentCategory[] {
  return DOCUMENT_TABS.find((t) => t.value === tab)?.categories ?? DOCUMENT_CATEGORIES;
}

/**
 * What to ask the server for: one category goes to the server (paged there); a tab that groups
 * several categories asks for all and keeps its own (newest first, at most one page of 200).
 */
export function documentFilter(
  tab: DocumentTab,
  chip: 'all' | DocumentCategory,
): { category?: DocumentCategory; keep?: readonly DocumentCategory[] } {
  const cats = tabCategories(tab);
  if (chip !== 'all') return cats.includes(chip) ? { category: chip } : { keep: [] };
  if (cats.length === 1) return { category: cats[0] };
  if (cats.length === DOCUMENT_CATEGORIES.length) return {};
  return { keep: cats };
}
