import { stripFences, summarizeExecution } from '../code-text';
import { codeDefinition, phaseRow } from '../definition';
import {
  optimizationAnswer,
  optimizationPrompt,
  repairAnswer,
  repairPrompt,
  SYSTEM,
} from '../prompts';
import { runWithRepairs } from '../repair';
import { runCode, runLine, timeLimit } from '../sandbox-runs';

/**
 * Phase 3: the code improved along the review and run again in the sandbox. Quick mode skips it
 * (the phase finishes at once, saying so).
 */
export const optimizationPhase = codeDefinition.phase('optimization', {
  name: phaseRow('optimization').name,
  description: 'Improves the code along the review and runs the improved code.',
  requiresModel: true,
  async run(ctx) {
    if (ctx.configuration.workflowMode === 'quick') {
      await ctx.log('Optimization skipped: quick mode runs generation and tests only');
      return { skipped: true, optimized_code: null, changes: [], execution: null, repairs: [] };
    }
    const c = ctx.configuration;
    const generated = ctx.resultOf('generation');
    const reviewed = ctx.resultOf('review');
    const answer = await ctx.llm.generateObject(optimizationAnswer, {
      system: SYSTEM,
      prompt: optimizationPrompt(ctx.input.requirements, generated.main_code, reviewed.findings, c),
      schemaName: 'optimized_code',
    });
    const optimized = stripFences(answer.object.optimized_code);
    await ctx.log(`The model made ${answer.object.changes.length} change(s) to the code`);
    const limit = await timeLimit(ctx.workspace);
    const { state, result, repairs } = await runWithRepairs({
      what: 'The optimized code',
      succeeded: 'the optimized code now runs',
      initial: optimized,
      run: async (code) => {
        const r = await runCode(ctx.services.sandbox, c, code, limit);
        if (r.kind !== 'unavailable') await ctx.log(runLine('The optimized code', r));
        return r;
      },
      repair: async (code, failure) => {
        const fix = await ctx.llm.generateObject(repairAnswer, {
          system: SYSTEM,
          prompt: repairPrompt('optimized code', code, failure, c),
          schemaName: 'repaired_code',
        });
        return { state: stripFences(fix.object.code), changed: 'code' };
      },
      log: ctx.log,
    });
    if (result.kind === 'unavailable') await ctx.log.warn(runLine('The optimized code', result));
    else if (!result.ok) {
      await ctx.log.error(`The optimized code still fails after ${repairs.length} repair(s)`);
    }
    return {
      skipped: false,
      optimized_code: state,
      changes: answer.object.changes,
      execution: summarizeExecution(result),
      repairs,
    };
  },
});
