import type { ModelContext, ModelDescription, ModelKind } from '../../../../common/teams/model';
import type { PhaseProvenance, WorkRecord } from '../../kit';

/**
 * The works a Model session's texts may cite: the references of the library model it develops
 * (recorded with source 'library', numbered as the theory prompt lists them) and, when a
 * workflow hands the session a literature review, the works that review verified. The citation
 * gate removes every other reference from the model's texts.
 */

/**
 * A library citation ("King, R. G., Plosser, C. I. and Rebelo, S. T. (1988). Production,
 * Growth and Business Cycles: I. ... Journal ...") read into its authors, year and title.
 */
export function parseLibraryCitation(citation: string): {
  authors: string[];
  year: number | undefined;
  title: string;
} {
  const m = /^(.*?)\s*\(((?:1[6-9]|20)\d{2})[a-z]?\)\.?\s*(.*)$/su.exec(citation.trim());
  if (!m) return { authors: [], year: undefined, title: citation.trim() };
  const [, authorPart = '', year = '', rest = ''] = m;
  const authors = authorPart
    // "A, B. and C, D." or "A, B., C, D. and E, F.": split before each "Family, I."
    .split(/\s+and\s+|,\s+(?=[\p{Lu}][\p{L}'’-]+,\s)/u)
    .map((a) => a.trim().replace(/,$/, ''))
    .filter((a) => a.length > 0);
  // The title runs to the first full stop that ends a sentence (not an initial or "ed.").
  const end = /(?<!\b(?:ed|vol|ch|[A-Z]))[.?!](?:\s|$)/u.exec(rest);
  const title = (end ? rest.slice(0, end.index + (end[0].startsWith('.') ? 0 : 1)) : rest).trim();
  return { authors, year: Number(year), title: title || citation.trim() };
}

/** The library model's references as works the gate accepts, numbered from 1. */
export function libraryWorks(kind: ModelKind, description: ModelDescription): WorkRecord[] {
  return description.references.map((r, i) => {
    const parsed = parseLibraryCitation(r.citation);
    return {
      id: `library:${kind}:${i + 1}`,
      source: 'library',
      title: parsed.title,
      authors: parsed.authors,
      year: parsed.year ?? null,
      number: i + 1,
    };
  });
}

/** The works a workflow's literature review verified (the theory may cite them too). */
export function reviewWorks(context: ModelContext | undefined): WorkRecord[] {
  return (context?.references ?? [])
    .filter((r) => r.title.trim().length > 0)
    .map((r) => ({
      id: r.id,
      source: 'review',
      title: r.title,
      authors: [],
      doi: r.doi ?? null,
    }));
}

/** Records the works this session's texts may cite (each phase records them again: idempotent). */
export function recordKnownWorks(
  provenance: Pick<PhaseProvenance, 'work'>,
  kind: ModelKind,
  description: ModelDescription,
  context: ModelContext | undefined,
): void {
  for (const work of [...libraryWorks(kind, description), ...reviewWorks(context)]) {
    provenance.work(work);
  }
}
