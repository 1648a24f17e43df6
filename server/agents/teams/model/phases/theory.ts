import { checkpointTitle, modelDefinition, phaseRow } from '../definition';
import { recordKnownWorks } from '../known-works';
import { importSessionModFile, isCustomModel, startingModel } from '../session-model';
import { runTheory } from '../theory';

/**
 * Phase 1 (checkpoint 1): the canonical model's framework adapted to the focus; for a custom
 * session, a summary of the imported .mod file written by code (no language model asked).
 */
export const theoryPhase = modelDefinition.phase('theory', {
  name: phaseRow('theory').name,
  description:
    "Adapts the canonical model's framework to the focus: assumptions, mechanisms, agents, markets.",
  checkpoint: {
    title: checkpointTitle('theory'),
    data: (r) => ({ source: r.source, title: r.title, adaptationMissing: r.adaptationMissing }),
  },
  async run(ctx) {
    const imported = isCustomModel(ctx.input) ? importSessionModFile(ctx.input) : undefined;
    const description = imported?.description ?? startingModel(ctx.input);
    recordKnownWorks(ctx.provenance, ctx.input.modelType, description, ctx.input.context);
    return runTheory({
      kind: ctx.input.modelType,
      description,
      focus: ctx.input.focus,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      ...(imported ? { imported } : {}),
      ...(ctx.input.context ? { context: ctx.input.context } : {}),
      gate: (text, where) => ctx.citations.gate(text, { where }),
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});
