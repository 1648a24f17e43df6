import { createPdfTextProcess, type PdfTextProcess } from '../platform/pdf-text';
import { importReferenceFile, type SkippedEntry } from './bibliography';
import type { CrossrefClient } from './crossref';
import { queryTerms, textMatch } from './merge';
import type { OpenAlexClient } from './openalex';
import {
  normaliseDoi,
  normaliseTitle,
  person,
  SOURCE_LABELS,
  type LiteratureSource,
  type Person,
  type SearchQuery,
  type SearchResult,
  type Work,
} from './work';

/**
 * The project's own library: reference files (BibTeX, RIS, CSL-JSON) and papers as PDF, searched
 * alongside the public sources so a review can rest on papers the researcher already holds.
 * A PDF's text is extracted (unpdf) and its metadata matched against Crossref/OpenAlex by the
 * DOI printed in it, else by its title; an unmatched PDF is kept under its own title and file
 * name, without invented metadata.
 */

export interface LibraryFile {
  name: string;
  bytes: Uint8Array;
}

export interface LibraryFileReport {
  name: string;
  kind: 'bibtex' | 'ris' | 'csl-json' | 'pdf';
  works: number;
  skipped: SkippedEntry[];
  /** PDFs: how the metadata was found. */
  matchedBy?: 'doi' | 'title' | 'none';
  error?: string;
}

export interface LibraryImport {
  works: Work[];
  files: LibraryFileReport[];
}

export interface LibraryMatchers {
  crossref?: Pick<CrossrefClient, 'workByDoi' | 'bibliographic'>;
  openalex?: Pick<OpenAlexClient, 'workByDoi' | 'searchWorks'>;
}

export interface PdfContent {
  text: string;
  pages: number;
  title?: string;
  author?: string;
  doi?: string;
}

/**
 * The PDF reader of library imports: pdf.js in a child process under an address-space limit,
 * with caps on inflated streams, pages, text and time (server/platform/pdf-text.ts), shared by
 * the process and started on first use. A file past a limit is refused with a message naming it.
 */
let pdfReader: PdfTextProcess | undefined;

/** Text, Info title/author and the first DOI printed in the first pages. */
export async function readPdf(bytes: Uint8Array): Promise<PdfContent> {
  pdfReader ??= createPdfTextProcess();
  const { pages, info } = await pdfReader.extract(bytes);
  const head = pages.slice(0, 2).join('\n');
  const doi = normaliseDoi(info.doi ?? /\b10\.\d{4,9}\/[^\s"<>]+/.exec(head)?.[0]);
  const result: PdfContent = { text: pages.join('\n\n'), pages: pages.length };
  const title = info.title;
  // Word processors write their file names as titles ("Microsoft Word - draft3.docx").
  if (title && !/^(microsoft word|untitled)|\.(docx?|tex|pdf)$/i.test(title)) result.title = title;
  if (info.author) result.author = info.author;
  if (doi) result.doi = doi;
  return result;
}

/** The abstract paragraph of a paper's text, when it has one. */
export function abstractFromText(text: string): string | undefined {
  const m = /\babstract\b[:.\s—-]*/i.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m.index + m[0].length);
  const end = rest.search(
    /\n\s*(?:1\.?\s+)?(?:introduction|keywords|jel\b)|\bkeywords\s*:|\bJEL\s+(?:codes?|classification)/i,
  );
  const body = (end > 0 ? rest.slice(0, end) : rest.slice(0, 1500)).replace(/\s+/g, ' ').trim();
  return body.length > 40 ? body.slice(0, 3000) : undefined;
}

function firstTitleLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((l) => l.trim())
    .find(
      (l) => l.split(/\s+/).length >= 4 && l.length <= 250 && !/^(abstract|arxiv|doi)/i.test(l),
    );
}

/** Word overlap of two titles (Jaccard on normalised words), 0..1. */
export function titleSimilarity(a: string, b: string): number {
  const wa = new Set(normaliseTitle(a).split(' ').filter(Boolean));
  const wb = new Set(normaliseTitle(b).split(' ').filter(Boolean));
  if (!wa.size || !wb.size) return 0;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return common / (wa.size + wb.size - common);
}

const TITLE_MATCH = 0.8;

async function matchMetadata(
  pdf: PdfContent,
  title: string | undefined,
  matchers: LibraryMatchers,
  signal?: AbortSignal,
): Promise<{ work?: Work; by: 'doi' | 'title' | 'none' }> {
  if (pdf.doi) {
    const byDoi =
      (await matchers.crossref?.workByDoi(pdf.doi, signal).catch(() => undefined)) ??
      (await matchers.openalex?.workByDoi(pdf.doi, signal).catch(() => undefined));
    if (byDoi) return { work: byDoi, by: 'doi' };
  }
  if (title) {
    const candidates = [
      ...((await matchers.crossref?.bibliographic(title, 3, signal).catch(() => [])) ?? []),
      ...((await matchers.openalex
        ?.searchWorks({ search: title, perPage: 3, signal })
        .then((p) => p.works)
        .catch(() => [])) ?? []),
    ];
    const best = candidates
      .map((w) => ({ w, s: titleSimilarity(w.title, title) }))
      .sort((a, b) => b.s - a.s)[0];
    if (best && best.s >= TITLE_MATCH) return { work: best.w, by: 'title' };
  }
  return { by: 'none' };
}

async function importPdf(
  file: LibraryFile,
  matchers: LibraryMatchers,
  rank: number,
  signal?: AbortSignal,
): Promise<{ work: Work; matchedBy: 'doi' | 'title' | 'none' }> {
  const pdf = await readPdf(file.bytes);
  const title = pdf.title ?? firstTitleLine(pdf.text);
  const { work: matched, by } = await matchMetadata(pdf, title, matchers, signal);
  const abstract = matched?.abstract ?? abstractFromText(pdf.text);
  if (matched) {
    return {
      work: {
        ...matched,
        source: 'library',
        sources: ['library', ...matched.sources.filter((s) => s !== 'library')],
        sourceId: file.name,
        rank,
        ...(abstract ? { abstract } : {}),
      },
      matchedBy: by,
    };
  }
  const authors = (pdf.author ?? '')
    .split(/;|,| and /)
    .map((name) => person({ name }))
    .filter((p): p is Person => p !== undefined);
  const work: Work = {
    source: 'library',
    sources: ['library'],
    sourceId: file.name,
    title: title ?? file.name.replace(/\.pdf$/i, ''),
    authors,
    rank,
    type: 'article',
  };
  if (pdf.doi) work.doi = pdf.doi;
  if (abstract) work.abstract = abstract;
  return { work, matchedBy: 'none' };
}

/** Imports every file; a file that cannot be read is reported, not fatal. */
export async function importLibrary(
  files: readonly LibraryFile[],
  matchers: LibraryMatchers = {},
  signal?: AbortSignal,
): Promise<LibraryImport> {
  const works: Work[] = [];
  const reports: LibraryFileReport[] = [];
  for (const file of files) {
    const lower = file.name.toLowerCase();
    const kind: LibraryFileReport['kind'] = lower.endsWith('.pdf')
      ? 'pdf'
      : lower.endsWith('.ris')
        ? 'ris'
        : lower.endsWith('.json')
          ? 'csl-json'
          : 'bibtex';
    try {
      if (kind === 'pdf') {
        const { work, matchedBy } = await importPdf(file, matchers, works.length, signal);
        works.push(work);
        reports.push({ name: file.name, kind, works: 1, skipped: [], matchedBy });
      } else {
        const result = importReferenceFile(file.name, file.bytes);
        for (const w of result.works) works.push({ ...w, rank: works.length });
        reports.push({
          name: file.name,
          kind,
          works: result.works.length,
          skipped: result.skipped,
        });
      }
    } catch (error) {
      reports.push({
        name: file.name,
        kind,
        works: 0,
        skipped: [],
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { works, files: reports };
}

/** The library as a source: its works that match the query's terms, best match first. */
export function createLibrarySource(works: readonly Work[]): LiteratureSource {
  return {
    id: 'library',
    label: SOURCE_LABELS.library,
    search: async (q: SearchQuery): Promise<SearchResult> => {
      const terms = queryTerms(q.query);
      const hits = works
        .filter((w) => {
          if (q.fromYear && (w.year === undefined || w.year < q.fromYear)) return false;
          if (q.toYear && (w.year === undefined || w.year > q.toYear)) return false;
          return true;
        })
        .map((w) => ({ w, s: textMatch(terms, w) }))
        .filter((h) => h.s > 0)
        .sort((a, b) => b.s - a.s)
        .slice(0, q.limit ?? 25)
        .map((h, rank) => ({ ...h.w, rank }));
      return { source: 'library', works: hits, total: hits.length, requests: 0 };
    },
  };
}
