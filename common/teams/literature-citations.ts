/**
 * References as CSL-JSON, the form citation-js turns into BibTeX and RIS (on the server for the
 * saved bibliography, in the browser for downloads). Pure: no citation-js import here.
 */

/** The fields of a reference (common/teams/literature.ts Reference) an export needs. */
export interface CitableReference {
  number: number;
  title: string;
  authors: string[];
  year?: number;
  published?: string;
  doi?: string;
  url?: string;
  venue?: string;
}

export interface CslName {
  given?: string;
  family?: string;
  literal?: string;
}

export interface CslReference {
  id: string;
  type: string;
  title: string;
  author: CslName[];
  issued?: { 'date-parts': number[][] };
  DOI?: string;
  URL?: string;
  'container-title'?: string;
  note?: string;
}

/** "Alan B. Krueger" -> given "Alan B.", family "Krueger"; one word stays literal. */
export function nameParts(name: string): CslName {
  const parts = name.trim().split(/\s+/);
  if (parts.length < 2) return { literal: name.trim() };
  return { given: parts.slice(0, -1).join(' '), family: parts[parts.length - 1]! };
}

function citationKey(ref: CitableReference, used: Map<string, number>): string {
  const first = ref.authors[0] ? nameParts(ref.authors[0]) : undefined;
  const family = (first?.family ?? first?.literal ?? 'Anon')
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '');
  const stem = `${family || 'Anon'}${ref.year ?? 'nd'}`;
  const n = used.get(stem) ?? 0;
  used.set(stem, n + 1);
  return n === 0 ? stem : `${stem}${String.fromCharCode(96 + n)}`;
}

export function referencesToCsl(references: readonly CitableReference[]): CslReference[] {
  const used = new Map<string, number>();
  return references.map((ref) => {
    const item: CslReference = {
      id: citationKey(ref, used),
      type: 'article-journal',
      title: ref.title,
      author: ref.authors.map(nameParts),
      // The number the report cites it by.
      note: `Reference [${ref.number}] of the review`,
    };
    const date = (ref.published ?? (ref.year ? String(ref.year) : '')).split('-').map(Number);
    if (date[0]) item.issued = { 'date-parts': [date.filter((n) => Number.isFinite(n) && n > 0)] };
    if (ref.doi) item.DOI = ref.doi;
    if (ref.url) item.URL = ref.url;
    if (ref.venue) item['container-title'] = ref.venue;
    return item;
  });
}

/**
 * citation-js 0.7 writes RIS values hard-wrapped every 70 characters, mid-word, and RIS readers
 * (its own included) join continuation lines with a space, so "Stochastic" would come back as
 * "Stochast ic". Values here hold no newlines, so a line that does not start with a tag is glued
 * back onto the one before it.
 */
export function unwrapRis(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (/^[A-Z][A-Z0-9] {2}-( |$)/.test(line) || out.length === 0) out.push(line);
    else out[out.length - 1] += line;
  }
  return out.join('\n');
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * citation-js 0.7 writes a date with a day as `month = {jun 1}` and one without as
 * `month = {6}`; BibTeX's month field takes its three-letter macros (`month = jun`), which every
 * BibTeX and biblatex style reads. The day has no BibTeX field and is dropped.
 */
export function bibtexMonths(text: string): string {
  return text.replace(
    /^(\s*month\s*=\s*)\{\s*(?:([a-z]{3})[a-z]*\.?(?:\s+\d{1,2})?|(\d{1,2}))\s*\},?/gim,
    (match, lead: string, name: string | undefined, number: string | undefined) => {
      const comma = match.trimEnd().endsWith(',') ? ',' : '';
      const month = name
        ? MONTHS.find((m) => m === name.toLowerCase())
        : MONTHS[Number(number) - 1];
      return month ? `${lead}${month}${comma}` : match;
    },
  );
}
