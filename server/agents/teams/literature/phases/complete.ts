import { splitModelPassages } from '../../../../../common/provenance';
import { formatBibliography, worksToCsl } from '../../../../sources/bibliography';
import { literature } from '../definition';
import { workFromPaper } from '../papers';
import { reportProvenanceItems } from '../report-document';

/** Phase 5: the report and its bibliography (BibTeX of the cited works) saved as documents. */
export const completePhase = literature.phase('complete', {
  name: 'Completed',
  description: 'Saves the report and its bibliography as documents of the project.',
  async run(ctx) {
    const { finalReport, references } = ctx.resultOf('report');
    const { papers, trends } = ctx.resultOf('gaps');
    const question = ctx.input.researchQuestion.trim();
    const cited = new Set(references.map((r) => r.number));
    const citedPapers = papers.filter((p) => cited.has(p.number));
    const works = citedPapers.map(workFromPaper);
    // The model's passages are the sections the report marks as its own.
    const passages = splitModelPassages(finalReport).flatMap((segment) =>
      segment.kind === 'model' ? [segment.title] : [],
    );
    const items = reportProvenanceItems({ cited: citedPapers, trends, passages });
    const bibtex = works.length
      ? formatBibliography(worksToCsl(works), 'bibtex')
      : '% No retrieved work is cited in the report.\n';
    const title = question.length > 150 ? `${question.slice(0, 149)}…` : question;
    try {
      const report = await ctx.workspace.documents.save({
        name: `Literature review: ${title}`,
        category: 'literature_review',
        format: 'md',
        content: finalReport,
        provenance: { items },
      });
      const bibliography = await ctx.workspace.documents.save({
        name: `Bibliography: ${title}`,
        category: 'literature_review',
        format: 'bib',
        content: bibtex,
        provenance: {
          items: reportProvenanceItems({ cited: citedPapers, trends: [], passages: [] }),
        },
      });
      await ctx.log(
        `Saved the report as the document "${report.name}" and its bibliography ` +
          `(${works.length} BibTeX entries) as "${bibliography.name}"` +
          (ctx.workspace.projectId ? ' in the project' : ' among your documents'),
      );
      return { finalReport, reportDocumentId: report.id, bibliographyDocumentId: bibliography.id };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      await ctx.log.error(
        `The report could not be saved as a document: ${error instanceof Error ? error.message : String(error)}. ` +
          'It stays available on this screen for download.',
      );
      return { finalReport, reportDocumentId: null, bibliographyDocumentId: null };
    }
  },
});
