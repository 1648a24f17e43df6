import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  type DocumentCategory,
} from '../../../../common/documents';

/** The Documentation tabs and the categories each groups. */
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
 * The categories to ask the server for (it filters and pages them): the chip's category, or the
 * tab's whole group. A chip left over from another tab counts as the tab's group. Undefined when
 * the tab holds every category.
 */
export function documentCategories(
  tab: DocumentTab,
  chip: 'all' | DocumentCategory,
): readonly DocumentCategory[] | undefined {
  const cats = tabCategories(tab);
  if (chip !== 'all' && cats.includes(chip)) return [chip];
  return cats.length === DOCUMENT_CATEGORIES.length ? undefined : cats;
}
