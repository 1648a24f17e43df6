import { canonicalModel } from '../../../../engines/models/library';
import { checkpointTitle, modelDefinition, phaseRow } from '../definition';
import { runMathematics } from '../mathematics';

/**
 * Phase 2 (checkpoint 2): the equations, parsed, solved and Blanchard-Kahn-checked by the
 * engine.
 */
export const mathematicalModelPhase = modelDefinition.phase('model', {
  name: phaseRow('model').name,
  description:
    'Writes the equations; the engine parses them, finds the steady state and checks Blanchard-Kahn.',
  checkpoint: {
    title: checkpointTitle('model'),
    data: (r) => ({ source: r.source, checks: r.checks, blanchardKahn: r.blanchardKahn }),
  },
  async run(ctx) {
    return runMathematics({
      canonical: canonicalModel(ctx.input.modelType),
      focus: ctx.input.focus,
      theory: ctx.optionalResultOf('theory') ?? null,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});
