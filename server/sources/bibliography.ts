import { createRequire } from 'node:module';
import type { Cite as CiteClass } from '@citation-js/core';
import { z } from 'zod';
import { bibtexMonths, unwrapRis } from '../../common/teams/literature-citations';
import { bestLink } from './trusted-hosts';
import { normaliseArxivId, normaliseDoi, person, plainText, type Person, type Work } from './work';

/**
 * The project library's reference files: BibTeX and RIS read with citation-js (into CSL-JSON, then
 * into works), and works written back out as BibTeX, RIS or CSL-JSON by citation-js. No
 * hand-written formatter. Real bibliographies are messy (the Econ-ARK file has @string macros,
 * @preamble, odd entry types, duplicates and entries with syntax errors): a file that does not
 * parse as a whole is split into entries and parsed in halves, so one bad entry is skipped and
 * reported instead of losing the file.
 */

export type BibliographyFormat = 'bibtex' | 'ris' | 'csl-json';

const requirePackage = createRequire(import.meta.url);
let loadedCite: typeof CiteClass | undefined;

/**
 * citation-js with its BibTeX, RIS and CSL plugins, loaded on first use: loading it takes about
 * 0.2 s of CPU, which every server and worker start paid though most never read or write a
 * reference file. The packages are CommonJS, so a synchronous require keeps these functions
 * synchronous; the plugins register themselves with the core when loaded.
 */
function citeClass(): typeof CiteClass {
  if (!loadedCite) {
    const core = requirePackage('@citation-js/core') as { Cite: typeof CiteClass };
    requirePackage('@citation-js/plugin-bibtex');
    requirePackage('@citation-js/plugin-ris');
    requirePackage('@citation-js/plugin-csl');
    loadedCite = core.Cite;
  }
  return loadedCite;
}

/** A CSL-JSON item (the fields read or written here; others pass through). */
export interface CslItem {
  id: string;
  type: string;
  title?: string;
  author?: { given?: string; family?: string; literal?: string }[];
  issued?: { 'date-parts'?: (number | string)[][]; literal?: string };
  DOI?: string;
  URL?: string;
  abstract?: string;
  'container-title'?: string;
  'citation-key'?: string;
  [key: string]: unknown;
}

export interface SkippedEntry {
  /** The start of the entry's text (e.g. "@article{Key2005,"). */
  entry: string;
  reason: string;
}

export interface ImportResult {
  works: Work[];
  items: CslItem[];
  skipped: SkippedEntry[];
}

const cslItemSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    type: z.string().catch('article'),
    title: z.string().optional().catch(undefined),
  })
  .passthrough();

/** Bytes as text: UTF-8 when valid (whatever a header claims), else Latin-1. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

function cleanItems(data: Record<string, unknown>[]): CslItem[] {
  const out: CslItem[] = [];
  for (const raw of data) {
    const { _graph: _ignored, ...rest } = raw;
    const parsed = cslItemSchema.safeParse(rest);
    if (parsed.success) out.push(parsed.data as CslItem);
  }
  return out;
}

interface BibEntry {
  type: string;
  text: string;
}

/**
 * The index after the bracket closing the one at `start`, or -1. With `stopAtEntry`, a line that
 * starts a new @entry ends the scan there (for an entry whose braces never close).
 */
function closingIndex(text: string, start: number, open: string, stopAtEntry: boolean): number {
  const close = open === '{' ? '}' : ')';
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (stopAtEntry && c === '\n' && /^\s*@[a-zA-Z]+\s*[{(]/.test(text.slice(i + 1, i + 200)))
      return i;
    if (c === '{' || (open === '(' && c === '(')) depth++;
    else if (c === '}' || (open === '(' && c === ')')) {
      depth--;
      if (depth === 0 && c === close) return i + 1;
    }
  }
  return -1;
}

/** Splits BibTeX text into its @entries (brace-matched); text between entries is comment. */
export function splitBibtex(text: string): BibEntry[] {
  const entries: BibEntry[] = [];
  const head = /@\s*([a-zA-Z]+)\s*([{(])/g;
  let match: RegExpExecArray | null;
  while ((match = head.exec(text))) {
    const open = match[2]!;
    const start = match.index + match[0].length - 1;
    let end = closingIndex(text, start, open, false);
    // Never closed: it ends where the next line starting an entry begins (the rest is kept).
    if (end < 0) end = closingIndex(text, start, open, true);
    if (end < 0) {
      entries.push({ type: match[1]!.toLowerCase(), text: text.slice(match.index) });
      break;
    }
    entries.push({ type: match[1]!.toLowerCase(), text: text.slice(match.index, end) });
    head.lastIndex = end;
  }
  return entries;
}

function parseBibtexChunk(text: string): CslItem[] {
  // \noopsort{key} (defined in a @preamble to steer sorting) prints nothing.
  const cleaned = text.replace(/\\noopsort\s*\{[^{}]*\}/g, '');
  return cleanItems(
    new (citeClass())(cleaned, { forceType: '@bibtex/text', generateGraph: false }).data,
  );
}

/**
 * Fixes two slips common in hand-kept files that BibTeX itself tolerates: an accent command
 * closed before its letter (`B{\'}enabou`, `Bi{\v}c`) and an elided value (`volume = ...,`).
 */
export function repairEntry(text: string): string {
  // The letter after a closed accent group: braced ({o} or {\i}), \i or \j (the dotless
  // letters, written plain), or a plain letter after optional space.
  const letter = String.raw`(?:\{\\?(\w)\}|\s*\\([ij]) ?|\s*(\w))`;
  const symbol = new RegExp(String.raw`\{\\([\x60'^"~=.])\}${letter}`, 'g');
  const named = new RegExp(String.raw`\{\\([uvHckbdrt])\}${letter}`, 'g');
  return text
    .replace(
      symbol,
      (_m, a: string, b?: string, i?: string, c?: string) => `{\\${a}${b ?? i ?? c}}`,
    )
    .replace(
      named,
      (_m, a: string, b?: string, i?: string, c?: string) => `{\\${a}{${b ?? i ?? c}}}`,
    )
    .replace(/=\s*\.\.\.\s*(,|\n|\})/g, '= {}$1');
}

/** Parses entries in halves until each bad entry is isolated. */
function parseEntries(macros: string, entries: BibEntry[], skipped: SkippedEntry[]): CslItem[] {
  if (!entries.length) return [];
  try {
    return parseBibtexChunk(`${macros}\n${entries.map((e) => e.text).join('\n')}`);
  } catch (error) {
    if (entries.length === 1) {
      const repaired = repairEntry(entries[0]!.text);
      if (repaired !== entries[0]!.text) {
        try {
          return parseBibtexChunk(`${macros}\n${repaired}`);
        } catch {
          // Still unreadable: skipped below with the original error.
        }
      }
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      skipped.push({ entry: entries[0]!.text.slice(0, 80).split('\n')[0]!, reason: reason ?? '' });
      return [];
    }
    const mid = Math.ceil(entries.length / 2);
    return [
      ...parseEntries(macros, entries.slice(0, mid), skipped),
      ...parseEntries(macros, entries.slice(mid), skipped),
    ];
  }
}

/** BibTeX (or BibLaTeX) text to CSL items and works; bad entries are skipped and listed. */
export function importBibtex(text: string): ImportResult {
  const skipped: SkippedEntry[] = [];
  let items: CslItem[];
  try {
    items = parseBibtexChunk(text);
  } catch {
    const entries = splitBibtex(text);
    const macros = entries
      .filter((e) => e.type === 'string')
      .map((e) => e.text)
      .join('\n');
    const content = entries.filter((e) => !['string', 'comment', 'preamble'].includes(e.type));
    items = parseEntries(macros, content, skipped);
  }
  return finish(items, skipped);
}

/** RIS text to CSL items and works. */
export function importRis(text: string): ImportResult {
  const skipped: SkippedEntry[] = [];
  let items: CslItem[] = [];
  try {
    items = cleanItems(
      new (citeClass())(text, { forceType: '@ris/file', generateGraph: false }).data,
    );
  } catch (error) {
    // One bad record must not lose the others: parse record by record.
    const records = text.split(/^ER {2}-.*$/m).filter((r) => /^TY {2}-/m.test(r));
    for (const record of records) {
      try {
        items.push(
          ...cleanItems(
            new (citeClass())(`${record.trim()}\nER  - \n`, {
              forceType: '@ris/file',
              generateGraph: false,
            }).data,
          ),
        );
      } catch (inner) {
        skipped.push({
          entry: record.trim().slice(0, 80).split('\n')[0] ?? '',
          reason: (inner instanceof Error ? inner.message : String(inner)).split('\n')[0] ?? '',
        });
      }
    }
    if (!records.length)
      skipped.push({ entry: text.slice(0, 80), reason: (error as Error).message ?? 'unreadable' });
  }
  return finish(items, skipped);
}

/** Reads a reference file by its name: .bib/.bibtex, .ris, or .json (CSL-JSON). */
export function importReferenceFile(name: string, bytes: Uint8Array): ImportResult {
  const text = decodeText(bytes);
  const lower = name.toLowerCase();
  if (lower.endsWith('.ris')) return importRis(text);
  if (lower.endsWith('.json')) return finish(cleanItems(asArray(JSON.parse(text))), []);
  return importBibtex(text);
}

function asArray(v: unknown): Record<string, unknown>[] {
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object');
}

/** Drops exact duplicates (same citation key and title): the Econ-ARK file repeats entries. */
function finish(items: CslItem[], skipped: SkippedEntry[]): ImportResult {
  const seen = new Set<string>();
  const unique = items.filter((i) => {
    const key = `${i.id}|${i.title ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const works = unique
    .map((item, i) => workFromCsl(item, i))
    .filter((w): w is Work => w !== undefined);
  return { works, items: unique, skipped };
}

function yearFromCsl(item: CslItem): { year?: number; published?: string } {
  const parts = item.issued?.['date-parts']?.[0];
  const y = parts ? Number(parts[0]) : Number.NaN;
  if (Number.isInteger(y) && y > 0) {
    const m = parts && parts[1] !== undefined ? Number(parts[1]) : undefined;
    const d = parts && parts[2] !== undefined ? Number(parts[2]) : undefined;
    const published = [
      String(y),
      m ? String(m).padStart(2, '0') : undefined,
      m && d ? String(d).padStart(2, '0') : undefined,
    ]
      .filter(Boolean)
      .join('-');
    return { year: y, published };
  }
  const literal = item.issued?.literal && /\b(1[5-9]\d\d|20\d\d)\b/.exec(item.issued.literal);
  return literal ? { year: Number(literal[1]), published: literal[1] } : {};
}

/**
 * What citation-js leaves of TeX: control spaces (U.S.\ Saving), italic corrections (S\/o),
 * the \noopsort{key} sorting trick, and protecting braces.
 */
function untex(s: string | undefined): string | undefined {
  return s?.replace(/\\\//g, '').replace(/\\ /g, ' ').replace(/[{}]/g, '');
}

/** One CSL item as a library work (undefined without a title). */
export function workFromCsl(item: CslItem, rank: number): Work | undefined {
  const title = plainText(untex(typeof item.title === 'string' ? item.title : undefined));
  if (!title) return undefined;
  const authors = (item.author ?? [])
    .map((a) => person({ given: untex(a.given), family: untex(a.family), name: untex(a.literal) }))
    .filter((p): p is Person => p !== undefined);
  const doi = normaliseDoi(item.DOI);
  const arxivId = doi?.startsWith('10.48550/arxiv.')
    ? normaliseArxivId(doi)
    : normaliseArxivId(
        typeof item.URL === 'string' && item.URL.includes('arxiv.org') ? item.URL : undefined,
      );
  const { year, published } = yearFromCsl(item);
  const work: Work = {
    source: 'library',
    sources: ['library'],
    sourceId: String(item['citation-key'] ?? item.id),
    title,
    authors,
    rank,
    type: item.type,
  };
  if (doi) work.doi = doi;
  if (arxivId) work.arxivId = arxivId;
  if (year) work.year = year;
  if (published) work.published = published;
  const venue = item['container-title'];
  if (typeof venue === 'string' && venue.trim()) work.venue = venue.trim();
  const abstract = plainText(typeof item.abstract === 'string' ? item.abstract : undefined);
  if (abstract) work.abstract = abstract;
  const url = bestLink([typeof item.URL === 'string' ? item.URL : undefined], doi);
  if (url) work.url = url;
  return work;
}

// --- Export -----------------------------------------------------------------------------------

const CSL_TYPES: Record<string, string> = {
  article: 'article-journal',
  'journal-article': 'article-journal',
  'article-journal': 'article-journal',
  preprint: 'article',
  'posted-content': 'article',
  book: 'book',
  'book-chapter': 'chapter',
  chapter: 'chapter',
  'proceedings-article': 'paper-conference',
  'paper-conference': 'paper-conference',
  report: 'report',
  dissertation: 'thesis',
  thesis: 'thesis',
  dataset: 'dataset',
};

function nameParts(p: Person): { given?: string; family?: string; literal?: string } {
  if (p.family) return { family: p.family, ...(p.given ? { given: p.given } : {}) };
  const parts = p.name.trim().split(/\s+/);
  if (parts.length < 2) return { literal: p.name };
  return { given: parts.slice(0, -1).join(' '), family: parts[parts.length - 1]! };
}

/** Citation keys like Card1994 (a, b, ... on clashes). */
function citationKeys(works: readonly Work[]): string[] {
  const used = new Map<string, number>();
  return works.map((w) => {
    const family = w.authors[0] ? (nameParts(w.authors[0]).family ?? w.authors[0].name) : 'Anon';
    const stem = `${family.normalize('NFKD').replace(/[^A-Za-z]/g, '') || 'Anon'}${w.year ?? 'nd'}`;
    const n = used.get(stem) ?? 0;
    used.set(stem, n + 1);
    return n === 0 ? stem : `${stem}${String.fromCharCode(96 + n)}`;
  });
}

/** Works as CSL-JSON items (the common form every output format is made from). */
export function worksToCsl(works: readonly Work[]): CslItem[] {
  const keys = citationKeys(works);
  return works.map((w, i) => {
    const item: CslItem = {
      id: keys[i]!,
      'citation-key': keys[i]!,
      type: CSL_TYPES[w.type ?? ''] ?? 'article-journal',
      title: w.title,
      author: w.authors.map(nameParts),
    };
    if (w.year) {
      const [y, m, d] = (w.published ?? String(w.year)).split('-').map(Number);
      item.issued = { 'date-parts': [[y ?? w.year, ...(m ? [m] : []), ...(m && d ? [d] : [])]] };
    }
    if (w.doi) item.DOI = w.doi;
    if (w.url) item.URL = w.url;
    if (w.venue) item['container-title'] = w.venue;
    if (w.abstract) item.abstract = w.abstract;
    return item;
  });
}

/** CSL items as BibTeX, RIS or CSL-JSON text, written by citation-js. */
export function formatBibliography(items: readonly CslItem[], format: BibliographyFormat): string {
  if (format === 'csl-json') return `${JSON.stringify(items, null, 2)}\n`;
  const cite = new (citeClass())(items, { generateGraph: false });
  if (format === 'bibtex') return bibtexMonths(cite.format('bibtex', { format: 'text' }));
  return unwrapRis(cite.format('ris', { format: 'text' }));
}
