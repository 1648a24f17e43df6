import { titleSimilarity } from './library';
import { normaliseDoi, normaliseTitle } from './work';

/**
 * The citation gate: deterministic, and independent of the model that wrote the text. A text a
 * researcher sees may refer only to works retrieved in its session. Everything in it that looks
 * like a reference is checked against those works and removed when it does not resolve:
 * - numbered citations ([3], [3, 7], [4-6]) to a number no retrieved work carries;
 * - author-year citations ("(Smith et al., 2019)", "(Smith 2019; Lee 2020)", "Smith and Jones
 *   (2019)", "Smith, A. (2019)") with no retrieved work by that author in that year;
 * - DOIs that belong to no retrieved work (with their "doi:" or https://doi.org/ prefix);
 * - lines of a reference list (under a References heading, or a line written as a reference
 *   entry: "Smith, A. (2019). Title ...", "[3] Smith ...") that match no retrieved work.
 * Code and mathematics are not prose: nothing in them is a citation. Each removal is returned
 * with what was removed and why, for the session log. The Literature team's report verifier is
 * built on these same functions; every other team's texts pass `gateCitations`.
 */

/** A work a text may cite: what the session retrieved (Paper and RecordedWork both fit). */
export interface CitableWork {
  /** The number texts cite it by ([3]), when they cite by number. */
  number?: number;
  doi?: string | null;
  title: string;
  authors: readonly string[];
  year?: number | null;
}

export interface CitationRemoval {
  /** What was removed, as it was written. */
  citation: string;
  reason: string;
}

export interface GatedText {
  /** The text with every unresolved reference removed. */
  text: string;
  removed: CitationRemoval[];
  /** Citations and reference lines looked at. */
  checked: number;
}

export const REFERENCES_HEADING =
  /^#{1,6}\s*(references|bibliography|works cited|reference list)\b.*$/im;
/**
 * [3], [3, 7], [3; 7], [4-6], [4–6]; not Markdown links ([text](url)), link definitions
 * ([1]: url), footnotes ([^1]), an index after a name (x[1]) or R's printed vectors ([1] 0.53).
 */
export const NUMBERED_CITATION =
  /(?<![\p{L}\p{N}_])\[(\s*\d+(?:\s*[-–,;]\s*\d+)*\s*)\](?![(:]|[ \t]*-?\d)/gu;
const NAME = String.raw`[A-Z][\p{L}'’-]+(?:\s+(?:van|von|de|der|da|di|le|la)\s+[A-Z][\p{L}'’-]+)?`;
const AUTHORS = String.raw`(${NAME})(?:\s+et\s+al\.?|\s+(?:and|&)\s+(${NAME}))?`;
const YEAR = String.raw`((?:19|20)\d{2})[a-z]?`;
/** (Smith, 2019), (Smith et al. 2019), (Smith and Jones, 2019a) */
const PAREN_AUTHOR_YEAR = new RegExp(String.raw`\(\s*${AUTHORS},?\s+${YEAR}\s*\)`, 'gu');
/** One entry of a group: "Smith, 2019", "see Smith et al. 2019". */
const AUTHOR_YEAR_ENTRY = new RegExp(
  String.raw`^\s*(?:(?:see|e\.g\.|cf\.|also)\s*,?\s+)*${AUTHORS},?\s+${YEAR}\s*$`,
  'u',
);
/** (Smith 2019; Lee and Park 2020) */
const PAREN_GROUP = /\(([^()\n]*;[^()\n]*)\)/g;
/** Smith et al. (2019) */
const NARRATIVE_AUTHOR_YEAR = new RegExp(String.raw`\b${AUTHORS}\s+\(\s*${YEAR}\s*\)`, 'gu');
const INITIALS = String.raw`(?:[A-Z]\.[\s-]*){1,3}`;
/** Smith, A. (2019); Smith, A. B., & Lee, C. (2019) */
const APA_AUTHOR_YEAR = new RegExp(
  String.raw`\b(${NAME}),\s+${INITIALS}(?:,?\s*(?:and|&)\s+(${NAME}),\s+${INITIALS})?(?:,?\s*et\s+al\.?)?\s*\(\s*${YEAR}\s*\)`,
  'gu',
);
/** A line written as a reference entry: "Smith, A. (2019) ..." or "[3] Smith ... 2019 ...". */
const REFERENCE_ENTRY_LINE = new RegExp(
  String.raw`^\s*(?:[-*+]\s+|\d+\.\s+)?(?:${NAME},\s+[A-Z]\.|\[\d+\]\s+\p{Lu})[^\n]*\b(?:19|20)\d{2}`,
  'u',
);
const DOI = /(?:https?:\/\/(?:dx\.)?doi\.org\/|\bdoi:?\s*)?\b10\.\d{4,9}\/[^\s)\]>"]+/gi;

/** The numbers of a numbered citation's group ("3, 7", "4-6"); undefined if it is not one. */
export function expandCitationGroup(group: string): number[] | undefined {
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

function familyNames(w: CitableWork): string[] {
  return w.authors.map((a) => {
    // "Family, Given" or "Given Family"
    const family = a.includes(',') ? a.split(',')[0]! : (a.trim().split(/\s+/).at(-1) ?? a);
    return normaliseTitle(family);
  });
}

/** The retrieved work an author-year citation points to, if one fits. */
export function resolveAuthorYear<W extends CitableWork>(
  works: readonly W[],
  first: string,
  second: string | undefined,
  year: number,
): W | undefined {
  const f = normaliseTitle(first);
  const s = second ? normaliseTitle(second) : undefined;
  const fits = works.filter((w) => {
    if (w.year !== year) return false;
    const names = familyNames(w);
    if (names[0] !== f && !names.includes(f)) return false;
    return s === undefined || names.includes(s);
  });
  return fits.length === 1 ? fits[0] : fits.find((w) => familyNames(w)[0] === f);
}

/**
 * What takes the place of a citation that was part of the sentence ("As Smith (2031) shows",
 * "see https://doi.org/..."): removing it would leave a sentence with a hole, so the reader is
 * told instead. A citation in parentheses is removed outright: the sentence stands without it.
 */
export const UNRETRIEVED_WORK = '[a work not retrieved in this session]';

/** Whether position `at` of `text` is inside parentheses opened on the same line. */
function insideParentheses(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(lineStart, at);
  return before.lastIndexOf('(') > before.lastIndexOf(')');
}

/** Whether position `at` of `text` begins a sentence (a line's start, or after . ! ? or :). */
function startsSentence(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(lineStart, at).trimEnd();
  return before === '' || /[.!?:]$/.test(before);
}

/** Removes spaces left before punctuation and doubled spaces by a removed citation. */
export function tidyAfterRemoval(text: string): string {
  return (
    text
      // "(doi: )", "(see )" left by a removed DOI or citation, then the space before it
      .replace(/\(\s*(?:(?:doi|DOI)\s*:?|see|e\.g\.,?|cf\.)?\s*\)/g, '')
      .replace(/[ \t]+([.,;:!?])/g, '$1')
      .replace(/[ \t]{2,}/g, ' ')
      .replace(/[ \t]+$/gm, '')
  );
}

/** "1-12" for a run of numbers, else the numbers listed. */
function describeNumbers(numbers: ReadonlySet<number>): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const first = sorted[0]!;
  const last = sorted.at(-1)!;
  return last - first + 1 === sorted.length ? `${first}-${last}` : sorted.join(', ');
}

/** Checks one line of a reference list against the retrieved works; a removal if none fits. */
export function checkReferenceLine(
  line: string,
  works: readonly CitableWork[],
): CitationRemoval | undefined {
  const text = line.replace(/^\s*(?:[-*+]|\d+\.)\s*/, '').trim();
  if (!text) return undefined;
  const num = /^\[(\d+)\]/.exec(text);
  const doi = normaliseDoi(/10\.\d{4,9}\/\S+/.exec(text)?.[0]);
  const year = /\b((?:19|20)\d{2})\b/.exec(text)?.[1];
  const byNumber = num ? works.find((w) => w.number === Number(num[1])) : undefined;
  const candidates = byNumber ? [byNumber] : works;
  const match = candidates.find((w) => {
    const workDoi = normaliseDoi(w.doi);
    if (doi && workDoi) return doi === workDoi;
    const titleOk =
      normaliseTitle(text).includes(normaliseTitle(w.title)) ||
      titleSimilarity(text, w.title) >= 0.5;
    const yearOk = !year || !w.year || Number(year) === w.year;
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

/** The text split at a References heading: the prose, and the list's lines (if any). */
export function splitReferenceSection(markdown: string): { body: string; listLines: string[] } {
  const heading = REFERENCES_HEADING.exec(markdown);
  if (!heading) return { body: markdown, listLines: [] };
  let body = markdown.slice(0, heading.index);
  const rest = markdown.slice(heading.index + heading[0].length);
  const next = /^#{1,2}\s+\S/m.exec(rest);
  const listText = next ? rest.slice(0, next.index) : rest;
  if (next) body += rest.slice(next.index);
  return { body, listLines: listText.split('\n').filter((l) => l.trim()) };
}

/** Hides code and mathematics while `check` runs over the prose, then puts them back. */
function outsideCodeAndMath(text: string, check: (prose: string) => string): string {
  const masked: string[] = [];
  const prose = text.replace(/```[\s\S]*?```|\$\$[\s\S]*?\$\$|\$[^$\n]+\$|`[^`\n]+`/g, (m) => {
    masked.push(m);
    return `\uE000${masked.length - 1}\uE000`;
  });
  return check(prose).replace(/\uE000(\d+)\uE000/g, (_m, i: string) => masked[Number(i)] ?? '');
}

export interface ProseCheckOptions {
  /**
   * What becomes of an author-year citation that resolves to a numbered work: 'number' rewrites
   * it to its number (a report that cites by number), 'keep' leaves it as written.
   */
  resolvedAuthorYear: 'number' | 'keep';
}

/**
 * Checks the citations of prose (not a reference list): author-year, numbered and DOIs, in that
 * order. Returns the checked text (code and mathematics untouched) and what was removed.
 */
export function checkProseCitations(
  text: string,
  works: readonly CitableWork[],
  options: ProseCheckOptions,
): GatedText {
  const removed: CitationRemoval[] = [];
  let checked = 0;
  const numbers = new Set(works.flatMap((w) => (w.number === undefined ? [] : [w.number])));
  const knownDois = new Set(works.flatMap((w) => normaliseDoi(w.doi) ?? []));

  const out = outsideCodeAndMath(text, (prose) => {
    const resolve = (first: string, second: string | undefined, year: string) => {
      checked++;
      const work = resolveAuthorYear(works, first, second, Number(year));
      if (!work) {
        removed.push({
          citation: '',
          reason: `no work by ${first}${second ? ` and ${second}` : ''} from ${year} was retrieved in this session`,
        });
      }
      return work;
    };
    const removedAs = (citation: string) => {
      removed[removed.length - 1]!.citation = citation.trim();
      // The names go too: left in the prose they would still point at a work nobody retrieved.
      // Part of the sentence (no parentheses around it), it is replaced by a note to the reader.
      return citation.trimStart().startsWith('(') ? '' : UNRETRIEVED_WORK;
    };
    const asNumber = (work: CitableWork) =>
      options.resolvedAuthorYear === 'number' && work.number !== undefined;

    // 1. Author-year citations, groups first: "(Smith 2019; Lee 2020)".
    prose = prose.replace(PAREN_GROUP, (match, inner: string) => {
      const parts = inner.split(';');
      const entries = parts.map((p) => AUTHOR_YEAR_ENTRY.exec(p));
      if (entries.some((e) => !e)) return match;
      const kept: string[] = [];
      entries.forEach((e, i) => {
        const work = resolve(e![1]!, e![2], e![3]!);
        if (work) kept.push(asNumber(work) ? `[${work.number}]` : parts[i]!.trim());
        else removedAs(parts[i]!);
      });
      if (!kept.length) return '';
      return kept.every((k) => k.startsWith('['))
        ? `[${kept.map((k) => k.slice(1, -1)).join(', ')}]`
        : `(${kept.join('; ')})`;
    });
    const single = (match: string, first: string, second: string | undefined, year: string) => {
      const work = resolve(first, second, year);
      if (!work) return removedAs(match);
      if (!asNumber(work)) return match;
      return match.startsWith('(')
        ? `[${work.number}]`
        : `${match.replace(/\s*\(.*$/s, '')} [${work.number}]`;
    };
    prose = prose.replace(APA_AUTHOR_YEAR, (m, a: string, b: string | undefined, y: string) =>
      single(m, a, b, y),
    );
    prose = prose.replace(
      PAREN_AUTHOR_YEAR,
      (m, a: string, b: string | undefined, y: string, at: number, whole: string) => {
        const kept = single(m, a, b, y);
        // "(Nobody, 1999) disagrees.": in parentheses, but the sentence's subject.
        return kept === '' && startsSentence(whole, at) ? UNRETRIEVED_WORK : kept;
      },
    );
    prose = prose.replace(NARRATIVE_AUTHOR_YEAR, (m, a: string, b: string | undefined, y: string) =>
      single(m, a, b, y),
    );

    // 2. Numbered citations.
    prose = prose.replace(NUMBERED_CITATION, (match, group: string) => {
      const cited = expandCitationGroup(group);
      if (!cited) return match;
      const kept: number[] = [];
      for (const n of cited) {
        checked++;
        if (numbers.has(n)) kept.push(n);
        else
          removed.push({
            citation: `[${n}]`,
            reason: numbers.size
              ? `no work ${n} was retrieved in this session (the retrieved set is ${describeNumbers(numbers)})`
              : `no work ${n} was retrieved in this session`,
          });
      }
      return kept.length ? `[${[...new Set(kept)].join(', ')}]` : '';
    });

    // 3. DOIs that belong to no retrieved work.
    return prose.replace(DOI, (match, ...rest: unknown[]) => {
      const bare = match.replace(/[.,;:]+$/, '');
      const doi = normaliseDoi(bare);
      checked++;
      if (doi && knownDois.has(doi)) return match;
      removed.push({ citation: bare, reason: 'no retrieved work has this DOI' });
      // The offset and the whole text are the replacer's last two arguments here (DOI has no
      // named groups).
      const whole = rest.at(-1) as string;
      const at = rest.at(-2) as number;
      const note = insideParentheses(whole, at) ? '' : UNRETRIEVED_WORK;
      return note + match.slice(bare.length);
    });
  });
  return { text: tidyAfterRemoval(out), removed, checked };
}

/**
 * Every reference in `text` to a work not in `works` removed: reference-list lines and lines
 * written as reference entries, then the prose's citations (see the module comment). Resolved
 * citations stay as they were written. Pure: the same text and works give the same result.
 */
export function gateCitations(text: string, works: readonly CitableWork[]): GatedText {
  const removed: CitationRemoval[] = [];
  let checked = 0;
  const source = text.replace(/\r\n/g, '\n');

  // 1. Reference lists and lines written as reference entries: kept whole or removed whole.
  const heading = REFERENCES_HEADING.exec(source);
  let inCode = false;
  let inList = false;
  const lines: string[] = [];
  let listKept = 0;
  let headingAt = -1;
  for (const line of source.split('\n')) {
    if (/^\s*(```|\$\$)/.test(line)) inCode = !inCode;
    if (!inCode && heading && line === heading[0]) {
      inList = true;
      headingAt = lines.length;
      lines.push(line);
      continue;
    }
    if (inList && /^#{1,2}\s+\S/.test(line)) {
      if (listKept === 0 && headingAt >= 0) lines.splice(headingAt, 1);
      inList = false;
    }
    if (!inCode && line.trim() && (inList || REFERENCE_ENTRY_LINE.test(line))) {
      checked++;
      const removal = checkReferenceLine(line, works);
      if (removal) {
        removed.push(removal);
        continue;
      }
      if (inList) listKept++;
    }
    lines.push(line);
  }
  if (inList && listKept === 0 && headingAt >= 0) lines.splice(headingAt, 1);

  // 2. The prose's citations.
  const prose = checkProseCitations(lines.join('\n'), works, { resolvedAuthorYear: 'keep' });
  const gated = prose.text.replace(/\n{3,}/g, '\n\n');
  return {
    // A text that was nothing but unretrieved references is empty, not a row of notes.
    text:
      gated
        .split(UNRETRIEVED_WORK)
        .join('')
        .replace(/[\s.,;:]+/g, '') === ''
        ? ''
        : gated,
    removed: [...removed, ...prose.removed],
    checked: checked + prose.checked,
  };
}

/** Sentences of a text that carry numbered citations, with the numbers each cites. */
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
      const works = [...sentence.matchAll(NUMBERED_CITATION)].flatMap(
        (m) => expandCitationGroup(m[1]!) ?? [],
      );
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
