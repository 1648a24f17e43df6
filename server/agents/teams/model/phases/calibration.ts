import { runCalibration } from '../calibration';
import { checkpointTitle, modelDefinition, phaseRow } from '../definition';
import { computeTargetData } from '../target-data';

/**
 * Phase 3 (checkpoint 3): calibration, moments against their targets (from a catalog dataset
 * when the session names one), impulse responses and simulated paths.
 */
export const calibrationPhase = modelDefinition.phase('calibration', {
  name: phaseRow('calibration').name,
  description: 'Calibrates, matches moments, and computes impulse responses, moments and paths.',
  checkpoint: {
    title: checkpointTitle('calibration'),
    data: (r) => ({
      targets: r.run.targets,
      estimation: r.estimation,
      feedbackNote: r.feedbackNote,
    }),
  },
  timeoutSeconds: 600,
  async run(ctx) {
    return runCalibration({
      math: ctx.resultOf('model'),
      periods: ctx.input.periods,
      configuration: ctx.configuration,
      engine: ctx.services.engine,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      targetData: ctx.input.targetData,
      // Checked again here: the dataset may have been deleted or changed since the start.
      computeTargets: (request, description) =>
        computeTargetData(
          { workspace: ctx.workspace, profiling: ctx.services.profiling },
          request,
          description,
        ),
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});
