import { literature } from './definition';
import { completePhase } from './phases/complete';
import { gapsPhase } from './phases/gaps';
import { questionPhase } from './phases/question';
import { reportPhase } from './phases/report';
import { searchPhase } from './phases/search';
import { registerLiteratureRoutes } from './routes';
import { literatureWorkflow } from './workflow';

/**
 * The Literature Review team: workflow basic_hitl with the five phases of its phase table,
 * three of them ending at human checkpoints, and its routes under /api/literature-team.
 */
export const literatureTeam = literature.build({
  phases: [questionPhase, searchPhase, gapsPhase, reportPhase, completePhase],
  finalOutputs: (results) => ({
    finalReport: results.complete?.finalReport ?? results.report?.finalReport ?? null,
    reportDocumentId: results.complete?.reportDocumentId ?? null,
    bibliographyDocumentId: results.complete?.bibliographyDocumentId ?? null,
  }),
  link: (sessionId) => `/app/literature-team?session=${sessionId}`,
  workflow: literatureWorkflow,
  routes: {
    prefix: '/api/literature-team',
    register(app, kit) {
      registerLiteratureRoutes(app, kit);
    },
  },
});
