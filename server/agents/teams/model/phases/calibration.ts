import { runCalibration } from '../calibration';
import { checkpointTitle, modelDefinition, phaseRow } from '../definition';
import { importSessionModFile, isCustomModel } from '../session-model';
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
    const custom = isCustomModel(ctx.input);
    // an imported file's stoch_simul `drop` (its `irf` and `periods` were read at the start)
    const burnIn = custom ? importSessionModFile(ctx.input).runOptions.burnIn : undefined;
    if (ctx.input.targetData)
      ctx.provenance.input({ kind: 'dataset', id: ctx.input.targetData.datasetId });
    const result = await runCalibration({
      math: ctx.resultOf('model'),
      custom,
      ...(burnIn !== undefined ? { burnIn } : {}),
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
      gate: (text, where) => ctx.citations.gate(text, { where }),
      log: ctx.log,
      warn: ctx.log.warn,
    });
    ctx.provenance.computation({
      id: 'model-solution',
      engine: 'econagents-model-engine',
      what: 'steady state, first-order solution, impulse responses, theoretical and simulated moments',
      version: '1',
    });
    if (result.estimation) {
      ctx.provenance.computation({
        id: 'moment-matching',
        engine: 'econagents-model-engine',
        what: `Nelder-Mead moment matching of ${result.estimation.parameters.map((p) => p.name).join(', ')}`,
        version: '1',
      });
    }
    if (result.dynare.available) {
      ctx.provenance.computation({
        id: 'dynare',
        engine: 'dynare',
        what: 'the exported .mod file run in Dynare under GNU Octave, compared with the engine',
        version: 'installed',
      });
    }
    return result;
  },
});
