import type { CodeFinalOutputs } from '../../../../common/teams/code';
import { codeDefinition } from './definition';
import { generationPhase } from './phases/generation';
import { optimizationPhase } from './phases/optimization';
import { reviewPhase } from './phases/review';
import { testsPhase } from './phases/tests';
import { codeTeamRoutes } from './routes';
import { codeWorkflow } from './workflow';

/**
 * The Code team: Code Generation, Code Review, Optimization and Test Development, without human
 * checkpoints. Every program the model writes is run in the sandbox; a failing run or failing
 * tests go back to the model a bounded number of times. Quick mode skips the review and the
 * optimization (their phases finish at once, saying so), so a session's phase numbers are those
 * of the phase table in both modes.
 */
export const codeTeam = codeDefinition.build({
  phases: [generationPhase, reviewPhase, optimizationPhase, testsPhase],
  finalOutputs: (results): CodeFinalOutputs | null => {
    const g = results.generation;
    if (!g) return null;
    const t = results.tests;
    return {
      language: g.language,
      code: t?.code_under_test ?? results.optimization?.optimized_code ?? g.main_code,
      test_code: t?.test_code ?? '',
      tests: t?.run.status ?? 'not_run',
      overall_score: results.review?.overall_score ?? null,
      documentId: t?.documentId ?? null,
    };
  },
  routes: codeTeamRoutes,
  workflow: codeWorkflow,
});
