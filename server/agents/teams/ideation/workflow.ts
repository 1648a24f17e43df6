import { z } from 'zod';
import {
  FINAL_QUESTIONS_MAX,
  IDEA_MAX_LENGTH,
  ideationModeSchema,
  ideationPhases,
} from '../../../../common/teams/ideation';
import { defineWorkflowAdapter, sessionResults } from '../../kit';
import { IDEATION_AGENT_IDS } from './definition';

/**
 * Ideation as a workflow step: the step's config is the start body (`mode`, `idea`) and
 * `questionIndex`, which of the final questions later steps work on (the first by default). The
 * final questions are saved to the project's research questions and handed on.
 */
const config = z
  .object({
    mode: ideationModeSchema.default('human'),
    idea: z.string().trim().min(1, 'idea is required').max(IDEA_MAX_LENGTH).optional(),
    questionIndex: z
      .number()
      .int()
      .min(0)
      .max(FINAL_QUESTIONS_MAX - 1)
      .optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.mode === 'human' && !c.idea) {
      ctx.addIssue({
        code: 'custom',
        path: ['idea'],
        message: 'idea is required (or choose mode "automatic")',
      });
    }
  });

export const ideationWorkflow = defineWorkflowAdapter({
  config,
  feed: (c) => ({
    agentId: IDEATION_AGENT_IDS[c.mode],
    input: c.mode === 'human' ? { mode: 'human', idea: c.idea } : { mode: 'automatic' },
    inputs: c.mode === 'human' && c.idea ? [{ kind: 'question', label: `Idea: ${c.idea}` }] : [],
  }),
  async harvest(session, workspace, c) {
    const final = sessionResults(session, ideationPhases).finalize;
    if (!final || final.questions.length === 0) {
      throw new Error('The Ideation session completed without final research questions');
    }
    const texts = [...final.questions].sort((a, b) => a.rank - b.rank).map((q) => q.question);
    if (workspace.projectId) await workspace.appendResearchQuestions(texts);
    const index = c.questionIndex ?? 0;
    const chosen = texts[index] ?? texts[0]!;
    return {
      handoff: { questions: texts.map((text) => ({ text })), question: { text: chosen } },
      outputs: texts.map((text) => ({ kind: 'question' as const, label: text })),
    };
  },
});
