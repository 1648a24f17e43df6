import { modelDefinition } from './definition';
import { calibrationPhase } from './phases/calibration';
import { completePhase } from './phases/complete';
import { mathematicalModelPhase } from './phases/model';
import { theoryPhase } from './phases/theory';
import { modelTeamRoutes } from './routes';
import { modelWorkflow } from './workflow';

/**
 * The Model team: Theoretical Framework, Mathematical Model and Calibration & Estimation, each
 * ending at a checkpoint, then Completed, which saves the documents.
 */
export const modelTeam = modelDefinition.build({
  phases: [theoryPhase, mathematicalModelPhase, calibrationPhase, completePhase],
  finalOutputs: (results) => ({
    documents: results.complete?.documents ?? [],
    modelType: results.model?.description.type ?? null,
  }),
  routes: modelTeamRoutes,
  workflow: modelWorkflow,
});
