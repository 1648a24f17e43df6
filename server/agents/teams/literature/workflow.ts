import { z } from 'zod';
import {
  literaturePhases,
  startLiteratureRequestSchema,
  type Reference,
} from '../../../../common/teams/literature';
import { defineWorkflowAdapter, sessionResults } from '../../kit';

/**
 * Literature as a workflow step: the step's config is the start body without the project and
 * uploads; the research question, when left out, is the one the earlier steps chose (or
 * `questionIndex` of their questions). It hands on the report document and the verified
 * references.
 */
const config = z
  .object(startLiteratureRequestSchema.shape)
  .omit({ projectId: true, libraryFiles: true })
  .extend({
    researchQuestion: startLiteratureRequestSchema.shape.researchQuestion.optional(),
    questionIndex: z.number().int().min(0).max(20).optional(),
  })
  .strict();

/** A reference's id for later steps: its DOI, else its address, else its number in the list. */
function referenceId(r: Reference): string {
  return r.doi ?? r.url ?? `reference-${r.number}`;
}

export const literatureWorkflow = defineWorkflowAdapter({
  config,
  feed(c, handoff) {
    const picked =
      c.questionIndex !== undefined ? handoff.questions?.[c.questionIndex] : handoff.question;
    const question = c.researchQuestion ?? picked?.text;
    if (!question) {
      throw new Error(
        'The Literature Review needs a research question: give config.researchQuestion or put an Ideation step before it',
      );
    }
    const { researchQuestion: _q, questionIndex: _i, ...options } = c;
    return {
      input: { researchQuestion: question },
      configuration: { workflow: 'basic_hitl', ...options },
      inputs: [
        {
          kind: 'question',
          label: question,
          ...(picked?.id && !c.researchQuestion ? { id: picked.id } : {}),
        },
        ...(c.libraryDocumentIds ?? []).map((id) => ({
          kind: 'document' as const,
          id,
          label: 'Library document',
        })),
      ],
    };
  },
  harvest(session) {
    const results = sessionResults(session, literaturePhases);
    const report = results.report;
    const reportDocumentId = results.complete?.reportDocumentId ?? undefined;
    const bibliographyDocumentId = results.complete?.bibliographyDocumentId ?? undefined;
    const references = (report?.references ?? []).map((r) => ({
      id: referenceId(r),
      title: r.title,
      ...(r.doi ? { doi: r.doi } : {}),
    }));
    return {
      handoff: {
        review: {
          ...(reportDocumentId ? { documentId: reportDocumentId } : {}),
          references,
        },
      },
      outputs: [
        ...(reportDocumentId
          ? [{ kind: 'document' as const, id: reportDocumentId, label: 'Literature review report' }]
          : []),
        ...(bibliographyDocumentId
          ? [{ kind: 'document' as const, id: bibliographyDocumentId, label: 'Bibliography' }]
          : []),
        {
          kind: 'references' as const,
          label: `${references.length} verified reference${references.length === 1 ? '' : 's'}`,
        },
      ],
    };
  },
});
