import type { Paper } from '../../../../common/teams/literature';
import {
  checkProseCitations,
  checkReferenceLine,
  citedSentences,
  expandCitationGroup,
  NUMBERED_CITATION,
  splitReferenceSection,
  unwrapParagraphs,
  type CitationRemoval,
} from '../../../sources/citation-gate';
import { buildReferences } from './papers';

/**
 * The literature report's citation verifier, built on the shared citation gate
 * (server/sources/citation-gate.ts, which every team's texts pass): a report may cite only works
 * retrieved in this session, by their number ([3], [3, 7], [4-6]). Author-year citations that
 * resolve are rewritten to their number; everything else that does not resolve is removed, and
 * the model's own reference list is checked line by line and then rebuilt from the numbers the
 * report cites. Each removal is returned with what was removed and why, for the session log.
 */

export type Removal = CitationRemoval;
export { citedSentences, unwrapParagraphs };

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

export function verifyReport(markdown: string, papers: readonly Paper[]): VerifiedReport {
  const byNumber = new Map(papers.map((p) => [p.number, p]));
  const referencesRemoved: Removal[] = [];

  // 1. The model's own reference list: checked line by line, then dropped (rebuilt below).
  const { body: prose, listLines } = splitReferenceSection(
    unwrapParagraphs(markdown.replace(/\r\n/g, '\n')),
  );
  for (const line of listLines) {
    const removal = checkReferenceLine(line, papers);
    if (removal) referencesRemoved.push(removal);
  }

  // 2. The body's citations: author-year (rewritten to their number), numbered, DOIs.
  const checkedBody = checkProseCitations(prose, papers, { resolvedAuthorYear: 'number' });
  const body = checkedBody.text.trimEnd();
  const cited = [
    ...new Set(
      [...body.matchAll(NUMBERED_CITATION)].flatMap((m) => expandCitationGroup(m[1]!) ?? []),
    ),
  ]
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
    citationsChecked: listLines.length + checkedBody.checked,
    citationsRemoved: checkedBody.removed,
    referencesRemoved,
  };
}
