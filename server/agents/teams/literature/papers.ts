import {
  REFERENCE_LINE_MIN,
  REFERENCE_TITLE_MAX,
  type LibraryWork,
  type Paper,
  type Reference,
} from '../../../../common/teams/literature';
import { withFullStop } from '../../../../common/text';
import type { RankedWork } from '../../../sources/merge';
import { normaliseTitle, type Work } from '../../../sources/work';

/**
 * Conversions between the connectors' works and the papers and references the team shows, and
 * the reference lines (titles cut to REFERENCE_TITLE_MAX characters; a line is kept only when
 * longer than REFERENCE_LINE_MIN).
 */

/** A key that identifies a work across runs (DOI, else title and year). */
export function workKey(w: { doi?: string; title: string; year?: number }): string {
  return w.doi ? `doi:${w.doi}` : `title:${normaliseTitle(w.title)}|${w.year ?? ''}`;
}

/** A ranked work as a numbered paper, before its fields are extracted. */
export function paperFromWork(w: RankedWork, number: number): Paper {
  const paper: Paper = {
    number,
    title: w.title,
    authors: w.authors.map((a) => a.name),
    abstract: w.abstract ?? '',
    key_insight: '',
    methodology: '',
    findings: '',
    source: w.source,
    sources: w.sources,
    sourceId: w.sourceId,
    extractedFrom: 'none',
    score: Math.round(w.score * 1000) / 1000,
  };
  if (w.url) paper.url = w.url;
  if (w.published) paper.published = w.published;
  if (w.year) paper.year = w.year;
  if (w.doi) paper.doi = w.doi;
  if (w.venue) paper.venue = w.venue;
  if (w.citations !== undefined) paper.citations = w.citations;
  return paper;
}

/** A paper back as a work (for BibTeX export). */
export function workFromPaper(p: Paper): Work {
  const work: Work = {
    source: p.source,
    sources: p.sources,
    sourceId: p.sourceId,
    title: p.title,
    authors: p.authors.map((name) => ({ name })),
    rank: p.number - 1,
  };
  if (p.doi) work.doi = p.doi;
  if (p.year) work.year = p.year;
  if (p.published) work.published = p.published;
  if (p.venue) work.venue = p.venue;
  if (p.abstract) work.abstract = p.abstract;
  if (p.url) work.url = p.url;
  return work;
}

/** A library work stored in the configuration as a connector work. */
export function workFromLibrary(w: LibraryWork, rank: number): Work {
  return { ...w, source: 'library', sources: ['library'], rank };
}

export function libraryWorkOf(w: Work): LibraryWork {
  const out: LibraryWork = { title: w.title, authors: w.authors, sourceId: w.sourceId };
  if (w.year) out.year = w.year;
  if (w.published) out.published = w.published;
  if (w.doi) out.doi = w.doi;
  if (w.arxivId) out.arxivId = w.arxivId;
  if (w.venue) out.venue = w.venue;
  if (w.abstract) out.abstract = w.abstract.slice(0, 5000);
  if (w.url) out.url = w.url;
  if (w.citations !== undefined) out.citations = w.citations;
  if (w.type) out.type = w.type;
  if (w.keywords) out.keywords = w.keywords;
  return out;
}

function authorList(authors: string[]): string {
  if (authors.length === 0) return 'Anonymous';
  if (authors.length === 1) return authors[0]!;
  if (authors.length === 2) return `${authors[0]} and ${authors[1]}`;
  return `${authors[0]} et al.`;
}

export function cutTitle(title: string): string {
  const t = title.trim();
  return t.length <= REFERENCE_TITLE_MAX ? t : `${t.slice(0, REFERENCE_TITLE_MAX - 1).trimEnd()}…`;
}

/** "Card and Krueger (1994). Minimum Wages and Employment. American Economic Review. https://doi.org/..." */
export function referenceLine(p: Paper): string {
  const parts = [
    `${authorList(p.authors)} (${p.year ?? 'n.d.'}).`,
    withFullStop(cutTitle(p.title)),
  ];
  if (p.venue) parts.push(withFullStop(p.venue));
  if (p.doi) parts.push(`https://doi.org/${p.doi}`);
  else if (p.url) parts.push(p.url);
  return parts.join(' ');
}

/** References for the given papers (all of them, or those numbered in `numbers`), in order. */
export function buildReferences(
  papers: readonly Paper[],
  numbers?: readonly number[],
): Reference[] {
  const wanted = numbers ? new Set(numbers) : undefined;
  const refs: Reference[] = [];
  for (const p of papers) {
    if (wanted && !wanted.has(p.number)) continue;
    const line = referenceLine(p);
    if (line.length <= REFERENCE_LINE_MIN) continue;
    const ref: Reference = {
      number: p.number,
      title: cutTitle(p.title),
      authors: p.authors,
      source: p.source,
      line,
    };
    if (p.year) ref.year = p.year;
    if (p.published) ref.published = p.published;
    if (p.url) ref.url = p.url;
    if (p.doi) ref.doi = p.doi;
    if (p.venue) ref.venue = p.venue;
    refs.push(ref);
  }
  return refs.sort((a, b) => a.number - b.number);
}

/** The papers as the prompt lists them: number, authors, year, title, venue and extracted fields. */
export function paperDigest(p: Paper, withAbstract = false): string {
  const lines = [`[${p.number}] ${authorList(p.authors)} (${p.year ?? 'n.d.'}). ${p.title}`];
  if (p.venue) lines.push(`    Venue: ${p.venue}`);
  if (p.extractedFrom === 'abstract') {
    lines.push(`    Key insight: ${p.key_insight}`);
    lines.push(`    Methodology: ${p.methodology}`);
    lines.push(`    Findings: ${p.findings}`);
  }
  if (withAbstract && p.abstract) lines.push(`    Abstract: ${p.abstract.slice(0, 1500)}`);
  if (!p.abstract) lines.push('    (no abstract retrieved)');
  return lines.join('\n');
}
