import type {
  LiteratureConfiguration,
  LiteratureSourceId,
} from '../../../../common/teams/literature';
import type { Workspace } from '../../kit';
import { importReferenceFile } from '../../../sources/bibliography';
import type { CrossrefClient } from '../../../sources/crossref';
import { abstractFromText, createLibrarySource } from '../../../sources/library';
import type { OpenAlexClient } from '../../../sources/openalex';
import { normaliseDoi, type LiteratureSource, type Work } from '../../../sources/work';
import { workFromLibrary } from './papers';

/** The sources a run searches: the public ones chosen, and the library when it has works. */

export interface LiteratureServices {
  openalex: OpenAlexClient;
  crossref: CrossrefClient;
  arxiv: LiteratureSource;
  semanticScholar: LiteratureSource;
}

export interface LibraryLoad {
  works: Work[];
  /** One line per document read, for the log. */
  notes: string[];
}

/** The name a stored document is read under (its format decides the parser). */
function fileNameOf(doc: { name: string; format: string; content: string }): string {
  if (doc.format === 'bib') return `${doc.name}.bib`;
  if (doc.format === 'json') return `${doc.name}.json`;
  // RIS is stored as text: a record starts with "TY  - ".
  if (/^TY {2}- /m.test(doc.content)) return `${doc.name}.ris`;
  return `${doc.name}.bib`;
}

/** Works a PDF's DOI is matched with (the same services the uploads are matched with). */
export type DoiMatcher = Pick<CrossrefClient, 'workByDoi'>;

/**
 * A PDF of the project as one library work. Its text was extracted when it was uploaded (the
 * document's content): the first DOI printed in its first pages is looked up, so the work
 * carries its published metadata; otherwise its name is its title. Either way the abstract is
 * the paper's own where its text has one.
 */
export async function workFromPdfDocument(
  doc: { id: string; name: string; content: string },
  matcher: DoiMatcher | undefined,
  rank: number,
): Promise<Work> {
  const head = doc.content.slice(0, 8000);
  const doi = normaliseDoi(/\b10\.\d{4,9}\/[^\s"<>]+/.exec(head)?.[0]?.replace(/[.,;:)\]]+$/, ''));
  const matched = doi ? await matcher?.workByDoi(doi).catch(() => undefined) : undefined;
  const abstract = matched?.abstract ?? abstractFromText(doc.content);
  const base: Work = matched ?? {
    source: 'library',
    sources: ['library'],
    sourceId: doc.name,
    title: doc.name.replace(/\.pdf$/i, ''),
    authors: [],
    rank,
    type: 'article',
    ...(doi ? { doi } : {}),
  };
  return {
    ...base,
    source: 'library',
    sources: ['library', ...base.sources.filter((s) => s !== 'library')],
    sourceId: doc.name,
    rank,
    ...(abstract ? { abstract } : {}),
  };
}

/**
 * The library: works uploaded at start plus the project's documents chosen (BibTeX, RIS,
 * CSL-JSON and PDF).
 */
export async function loadLibrary(
  configuration: Pick<LiteratureConfiguration, 'library' | 'libraryDocumentIds'>,
  workspace: Pick<Workspace, 'documents'>,
  matcher?: DoiMatcher,
): Promise<LibraryLoad> {
  const works = configuration.library.map((w, i) => workFromLibrary(w, i));
  const notes: string[] = [];
  for (const id of configuration.libraryDocumentIds) {
    const doc = await workspace.documents.read(id);
    if (doc.format === 'pdf') {
      const work = await workFromPdfDocument(doc, matcher, works.length);
      works.push(work);
      notes.push(
        `Read the PDF "${doc.name}" from the project as the work "${work.title}"` +
          (work.sources.length > 1 ? ' (matched by its DOI)' : ''),
      );
      continue;
    }
    const result = importReferenceFile(fileNameOf(doc), new TextEncoder().encode(doc.content));
    for (const w of result.works) works.push({ ...w, rank: works.length });
    notes.push(
      `Read ${result.works.length} works from the project document "${doc.name}"` +
        (result.skipped.length ? ` (${result.skipped.length} unreadable entries skipped)` : ''),
    );
  }
  return { works, notes };
}

export function chooseSources(
  services: LiteratureServices,
  chosen: readonly LiteratureSourceId[],
  library: readonly Work[],
): LiteratureSource[] {
  const out: LiteratureSource[] = [];
  for (const id of chosen) {
    if (id === 'openalex') out.push(services.openalex);
    else if (id === 'crossref') out.push(services.crossref);
    else if (id === 'arxiv') out.push(services.arxiv);
    else if (id === 'semantic_scholar') out.push(services.semanticScholar);
    else if (id === 'library' && library.length) out.push(createLibrarySource(library));
  }
  return out;
}
