import type { Reference } from '../../../common/teams/literature';
import {
  bibtexMonths,
  referencesToCsl,
  unwrapRis,
} from '../../../common/teams/literature-citations';

/**
 * Downloads built in the browser: text and JSON files whose names carry
 * the date, and the references as BibTeX, RIS or CSL-JSON written by citation-js (loaded only when
 * a citation download is asked for).
 */

export type CitationFormat = 'bibtex' | 'ris' | 'csl-json';

export const CITATION_FORMATS: { format: CitationFormat; label: string; extension: string }[] = [
  { format: 'bibtex', label: 'BibTeX', extension: 'bib' },
  { format: 'ris', label: 'RIS', extension: 'ris' },
  { format: 'csl-json', label: 'CSL-JSON', extension: 'json' },
];

export async function formatReferences(
  references: readonly Reference[],
  format: CitationFormat,
): Promise<string> {
  const items = referencesToCsl(references);
  if (format === 'csl-json') return `${JSON.stringify(items, null, 2)}\n`;
  const [{ Cite }] = await Promise.all([
    import('@citation-js/core'),
    import('@citation-js/plugin-bibtex'),
    import('@citation-js/plugin-ris'),
    import('@citation-js/plugin-csl'),
  ]);
  const cite = new Cite(items, { generateGraph: false });
  if (format === 'bibtex') return bibtexMonths(cite.format('bibtex', { format: 'text' }));
  return unwrapRis(cite.format('ris', { format: 'text' }));
}
