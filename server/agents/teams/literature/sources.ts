import type {
  LiteratureConfiguration,
  LiteratureSourceId,
} from '../../../../common/teams/literature';
import type { Workspace } from '../../kit';
import { importReferenceFile } from '../../../sources/bibliography';
import type { CrossrefClient } from '../../../sources/crossref';
import { createLibrarySource } from '../../../sources/library';
import type { OpenAlexClient } from '../../../sources/openalex';
import type { LiteratureSource, Work } from '../../../sources/work';
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

/** The library: works uploaded at start plus the project's reference documents chosen. */
export async function loadLibrary(
  configuration: Pick<LiteratureConfiguration, 'library' | 'libraryDocumentIds'>,
  workspace: Pick<Workspace, 'documents'>,
): Promise<LibraryLoad> {
  const works = configuration.library.map((w, i) => workFromLibrary(w, i));
  const notes: string[] = [];
  for (const id of configuration.libraryDocumentIds) {
    const doc = await workspace.documents.read(id);
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
