import type { Paper } from '../../../../common/teams/literature';
import { normaliseDoi, normaliseTitle } from '../../../sources/work';
import { titleSimilarity } from '../../../sources/library';
import { buildReferences } from './papers';

/**
 * The citation verifier: deterministic, and independent of the model that wrote the report. A
 * report may cite only works retrieved in this session, by their number ([3], [3, 7], [4-6]).
 * Everything else that looks like a citation is checked against the retrieved works and removed
 * when it does not resolve:
 * - numbered citations outside the retrieved set;
 * - author-year citations ("(Smith et al., 2019)", "Smith and Jones (2019)") with no retrieved
 *   work by that author in that year (those that resolve are rewritten to their number);
 * - DOIs that belong to no retrieved work;
 * - every line of a reference list the model wrote (the list is rebuilt from the cited numbers,
 *   and lines whose identifier, title or year do not match a retrieved work are reported).
 * Each removal is returned with what was removed and why, for the session log.
 */

export interface Removal {
  citation: string;
  reason: string;
}

export interface VerifiedReport {
  /** The body with citations checked and a rebuilt References section. */
  markdown: string;
  body: string;
  /** The rebuilt "## References" section. */
  referencesMarkdown: string;
  /** Numbers cited in the body after checking, ascending. */
  cited: number[];
  citationsChecked: number;
  citationsRemoved: Removal[];
  referencesRemoved: Removal[];
}

const REFERENCES_HEADING = /^#{1,6}\s*(references|bibliography|works cited|reference list)\b.*$/im;
/** [3], [3, 7], [3; 7], [4-6], [4–6]; not Markdown links ([text](url)) or footnotes ([^1]). */
const NUMBERED = /\[(\s*\d+(?:\s*[-–,;]\s*\d+)*\s*)\](?!\()/g;
const NAME = String.raw`[A-Z][\p{L}'’-]+(?:\s+(?:van|von|de|der|da|di|le|la)\s+[A-Z][\p{L}'’-]+)?`;
const AUTHORS = String.raw`(${NAME})(?:\s+et\s+al\.?|\s+(?:and|&)\s+(${NAME}))?`;
/** (Smith, 2019), (Smith et al. 2019), (Smith and Jones, 2019a) */
const PAREN_AUTHOR_YEAR = new RegExp(
  String.raw`\(\s*${AUTHORS},?\s+((?:19|20)\d{2})[a-z]?\s*\)`,
  'gu',
);
/** Smith et al. (2019) */
const NARRATIVE_AUTHOR_YEAR = new RegExp(
  String.raw`\b${AUTHORS}\s+\(\s*((?:19|20)\d{2})[a-z]?\s*\)`,
  'gu',
);
const DOI = /\b10\.\d{4,9}\/[^\s)\]>"]+/g;

function expand(group: string): number[] | undefined {
  const out: number[] = [];
  for (const part of group.split(/[,;]/)) {
    const range = /^\s*(\d+)\s*[-–]\s*(\d+)\s*$/.exec(part);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      if (b < a || b - a > 50) return undefined;
      for (let n = a; n <= b; n++) out.push(n);
    } else if (/^\s*\d+\s*$/.test(part)) out.push(Number(part));
    else return undefined;
  }
  return out;
}

function familyNames(p: Paper): string[] {
  return p.authors.map((a) => normaliseTitle(a.split(/\s+/).at(-1) ?? a));
}

/** The retrieved work an author-year citation points to, if exactly one fits. */
function resolveAuthorYear(
  papers: readonly Paper[],
  first: string,
  second: string | undefined,
  year: number,
) {
  const f = normaliseTitle(first);
  const s = second ? normaliseTitle(second) : undefined;
  const fits = papers.filter((p) => {
    if (p.year !== year) return false;
    const names = familyNames(p);
    if (names[0] !== f && !names.includes(f)) return false;
    return s === undefined || names.includes(s);
  });
  return fits.length === 1 ? fits[0] : fits.find((p) => familyNames(p)[0] === f);
}

/** Removes spaces left before punctuation and doubled spaces by a removed citation. */
function tidy(text: string): string {
  return text
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/\(\s*\)/g, '')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+$/gm, '');
}

/** Checks one line of a reference list the model wrote against the retrieved works. */
function checkReferenceLine(line: string, papers: readonly Paper[]): Removal | undefined {
  const text = line.replace(/^\s*(?:[-*+]|\d+\.)\s*/, '').trim();
  if (!text) return undefined;
  const num = /^\[(\d+)\]/.exec(text);
  const doi = normaliseDoi(/10\.\d{4,9}\/\S+/.exec(text)?.[0]);
  const year = /\b((?:19|20)\d{2})\b/.exec(text)?.[1];
  const byNumber = num ? papers.find((p) => p.number === Number(num[1])) : undefined;
  const candidates = byNumber ? [byNumber] : papers;
  const match = candidates.find((p) => {
    if (doi && p.doi) return doi === p.doi;
    const titleOk =
      normaliseTitle(text).includes(normaliseTitle(p.title)) ||
      titleSimilarity(text, p.title) >= 0.5;
    const yearOk = !year || !p.year || Number(year) === p.year;
    return titleOk && yearOk;
  });
  if (match) return undefined;
  const reason =
    num && !byNumber
      ? `no work ${num[1]} was retrieved in this session`
      : byNumber
        ? `work ${byNumber.number} is "${byNumber.title}" (${byNumber.year ?? 'n.d.'}), which this entry does not match`
        : doi
          ? `no retrieved work has the DOI ${doi}`
          : 'no retrieved work has this title and year';
  return { citation: text.slice(0, 200), reason };
}

export function verifyReport(markdown: string, papers: readonly Paper[]): VerifiedReport {
  const byNumber = new Map(papers.map((p) => [p.number, p]));
  const citationsRemoved: Removal[] = [];
  const referencesRemoved: Removal[] = [];
  let checked = 0;

  markdown = unwrapParagraphs(markdown.replace(/\r\n/g, '\n'));
  // 1. The model's own reference list: checked line by line, then dropped (rebuilt below).
  let body = markdown;
  const heading = REFERENCES_HEADING.exec(markdown);
  if (heading) {
    body = markdown.slice(0, heading.index);
    const rest = markdown.slice(heading.index + heading[0].length);
    const next = /^#{1,2}\s+\S/m.exec(rest);
    const listText = next ? rest.slice(0, next.index) : rest;
    if (next) body += rest.slice(next.index);
    for (const line of listText.split('\n')) {
      if (!line.trim()) continue;
      checked++;
      const removal = checkReferenceLine(line, papers);
      if (removal) referencesRemoved.push(removal);
    }
  }

  // Code and mathematics are not prose: nothing in them is a citation.
  const masked: string[] = [];
  body = body.replace(/```[\s\S]*?```|\$\$[\s\S]*?\$\$|\$[^$\n]+\$|`[^`\n]+`/g, (m) => {
    masked.push(m);
    return `\uE000${masked.length - 1}\uE000`;
  });
  const unmask = (text: string) =>
    text.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => masked[Number(i)] ?? '');

  // 2. Author-year citations: rewritten to their number, or removed.
  const authorYear = (match: string, first: string, second: string | undefined, year: string) => {
    checked++;
    const paper = resolveAuthorYear(papers, first, second, Number(year));
    if (paper)
      return match.startsWith('(')
        ? `[${paper.number}]`
        : `${match.replace(/\s*\(.*$/, '')} [${paper.number}]`;
    citationsRemoved.push({
      citation: match.trim(),
      reason: `no work by ${first}${second ? ` and ${second}` : ''} from ${year} was retrieved in this session`,
    });
    // The names go too: left in the prose they would still point at a work nobody retrieved.
    return '';
  };
  body = body.replace(PAREN_AUTHOR_YEAR, (m, a: string, b: string | undefined, y: string) =>
    authorYear(m, a, b, y),
  );
  body = body.replace(NARRATIVE_AUTHOR_YEAR, (m, a: string, b: string | undefined, y: string) =>
    authorYear(m, a, b, y),
  );

  // 3. Numbered citations.
  body = body.replace(NUMBERED, (match, group: string) => {
    const numbers = expand(group);
    if (!numbers) return match;
    const kept: number[] = [];
    for (const n of numbers) {
      checked++;
      if (byNumber.has(n)) kept.push(n);
      else
        citationsRemoved.push({
          citation: `[${n}]`,
          reason: `no work ${n} was retrieved in this session (the retrieved set is 1-${papers.length})`,
        });
    }
    return kept.length ? `[${[...new Set(kept)].join(', ')}]` : '';
  });

  // 4. DOIs in the text that belong to no retrieved work.
  const knownDois = new Set(papers.map((p) => p.doi).filter(Boolean));
  body = body.replace(DOI, (match) => {
    const bare = match.replace(/[.,;:]+$/, '');
    const doi = normaliseDoi(bare);
    checked++;
    if (doi && knownDois.has(doi)) return match;
    citationsRemoved.push({ citation: bare, reason: 'no retrieved work has this DOI' });
    return match.slice(bare.length);
  });

  body = tidy(unmask(body)).trimEnd();
  const cited = [...new Set([...body.matchAll(NUMBERED)].flatMap((m) => expand(m[1]!) ?? []))]
    .filter((n) => byNumber.has(n))
    .sort((a, b) => a - b);
  const references = buildReferences(papers, cited);
  // Written as "- [n] line", not a numbered Markdown list (which would renumber from 1).
  const referencesSection = references.length
    ? references.map((r) => `- [${r.number}] ${r.line}`).join('\n')
    : '_No retrieved work is cited._';
  const referencesMarkdown = `## References\n\n${referencesSection}\n`;
  return {
    markdown: `${body}\n\n${referencesMarkdown}`,
    body,
    referencesMarkdown,
    cited,
    citationsChecked: checked,
    citationsRemoved,
    referencesRemoved,
  };
}

/** Sentences of the body that carry numbered citations, with the numbers each cites. */
export function citedSentences(body: string): { sentence: string; works: number[] }[] {
  const out: { sentence: string; works: number[] }[] = [];
  let inCode = false;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```') || line === '$$') inCode = !inCode;
    if (inCode || !line || line.startsWith('#') || line.startsWith('|')) continue;
    const text = line.replace(/^(?:[-*+]|\d+\.)\s+/, '');
    // Split after . ! ? followed by a capital, but not after "et al." or "e.g." / "i.e.".
    const sentences = text.split(/(?<!\bal\.|\be\.g\.|\bi\.e\.|\bcf\.)(?<=[.!?])\s+(?=[A-Z(])/);
    for (const sentence of sentences) {
      const works = [...sentence.matchAll(NUMBERED)].flatMap((m) => expand(m[1]!) ?? []);
      if (works.length) out.push({ sentence: sentence.trim(), works: [...new Set(works)] });
    }
  }
  return out;
}

/**
 * Joins the soft line breaks of Markdown paragraphs (so a sentence is on one line), leaving
 * headings, list items, tables, quotes, code and display math as they are.
 */
export function unwrapParagraphs(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let inCode = false;
  const blockStart = (l: string) => /^\s*(#|[-*+]\s|\d+\.\s|\||>|```|\$\$)/.test(l) || !l.trim();
  for (const line of lines) {
    if (/^\s*(```|\$\$)/.test(line)) inCode = !inCode && !/^\s*\$\$.*\$\$\s*$/.test(line);
    const prev = out[out.length - 1];
    if (
      !inCode &&
      prev !== undefined &&
      prev.trim() &&
      !blockStart(line) &&
      !/^\s*(#|\||```|\$\$)/.test(prev)
    ) {
      out[out.length - 1] = `${prev.trimEnd()} ${line.trim()}`;
    } else out.push(line);
  }
  return out.join('\n');
}
