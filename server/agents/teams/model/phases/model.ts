import { checkpointTitle, modelDefinition, phaseRow } from '../definition';
import { recordKnownWorks } from '../known-works';
import { runMathematics } from '../mathematics';
import {
  importSessionModFile,
  importSummary,
  isCustomModel,
  startingModel,
} from '../session-model';

/**
 * Phase 2 (checkpoint 2): the equations, parsed, solved and Blanchard-Kahn-checked by the
 * engine (for a custom session, those of the researcher's .mod file).
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
    const imported = isCustomModel(ctx.input) ? importSessionModFile(ctx.input) : undefined;
    const canonical = imported?.description ?? startingModel(ctx.input);
    recordKnownWorks(ctx.provenance, ctx.input.modelType, canonical, ctx.input.context);
    ctx.provenance.computation({
      id: 'model-check',
      engine: 'econagents-model-engine',
      what: 'parse, steady state (Newton) and Blanchard-Kahn check of the equations',
      version: '1',
    });
    return runMathematics({
      canonical,
      focus: ctx.input.focus,
      theory: ctx.optionalResultOf('theory') ?? null,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      ...(imported ? { imported: importSummary(ctx.input, imported) } : {}),
      gate: (text, where) => ctx.citations.gate(text, { where }),
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});
