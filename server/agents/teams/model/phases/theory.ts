import { canonicalModel } from '../../../../engines/models/library';
import { checkpointTitle, modelDefinition, phaseRow } from '../definition';
import { runTheory } from '../theory';

/** Phase 1 (checkpoint 1): the canonical model's framework adapted to the focus. */
export const theoryPhase = modelDefinition.phase('theory', {
  name: phaseRow('theory').name,
  description:
    "Adapts the canonical model's framework to the focus: assumptions, mechanisms, agents, markets.",
  checkpoint: {
    title: checkpointTitle('theory'),
    data: (r) => ({ source: r.source, title: r.title, adaptationMissing: r.adaptationMissing }),
  },
  async run(ctx) {
    return runTheory({
      description: canonicalModel(ctx.input.modelType),
      focus: ctx.input.focus,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});
