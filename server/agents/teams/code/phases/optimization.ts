import { plural } from '../../../../../common/text';
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
import { runCode, runLine, sessionDataFiles, timeLimit } from '../sandbox-runs';
import { workingFilesPrompt } from '../working-files';

/**
 * Phase 3: the code improved along the review and run again in the sandbox. A model that gives
 * no improved code leaves the generated code as it was (the phase says so). Quick mode skips it
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
    const setting = { ...c, files: workingFilesPrompt(generated.working_files) };
    const kept = async (why: string) => {
      const note = `${why}; the generated code is kept`;
      await ctx.log.warn(note);
      return {
        skipped: false,
        optimized_code: null,
        changes: [],
        execution: null,
        repairs: [],
        note,
      };
    };

    let answer;
    try {
      answer = await ctx.llm.generateObject(optimizationAnswer, {
        system: SYSTEM,
        prompt: optimizationPrompt(
          ctx.input.requirements,
          generated.main_code,
          reviewed.findings,
          setting,
        ),
        schemaName: 'optimized_code',
      });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      return kept(`The model's optimization could not be read (${(err as Error).message})`);
    }
    if (!answer.object.optimized_code.trim()) return kept('The model gave no optimized code');
    const optimized = stripFences(answer.object.optimized_code);
    const changes: string[] = [];
    for (const change of answer.object.changes) {
      if (!change.trim()) continue;
      changes.push(await ctx.citations.gate(change, { where: 'the optimization changes' }));
    }
    await ctx.log(`The model made ${plural(changes.length, 'change')} to the code`);
    const limit = await timeLimit(ctx.workspace);
    const { dataFiles } = await sessionDataFiles(ctx.input.workingFiles, {
      workspace: ctx.workspace,
      profiling: ctx.services.profiling,
      log: ctx.log,
    });
    const { state, result, repairs } = await runWithRepairs({
      what: 'The optimized code',
      succeeded: 'the optimized code now runs',
      initial: optimized,
      run: async (code) => {
        const r = await runCode(ctx.services.sandbox, c, code, limit, dataFiles);
        if (r.kind !== 'unavailable') await ctx.log(runLine('The optimized code', r));
        return r;
      },
      repair: async (code, failure) => {
        const fix = await ctx.llm.generateObject(repairAnswer, {
          system: SYSTEM,
          prompt: repairPrompt('optimized code', code, failure, setting),
          schemaName: 'repaired_code',
        });
        if (!fix.object.code.trim()) return { state: code, changed: 'none' };
        const fixed = stripFences(fix.object.code);
        return { state: fixed, changed: fixed === code ? 'none' : 'code' };
      },
      log: ctx.log,
      signal: ctx.signal,
    });
    if (result.kind === 'unavailable') await ctx.log.warn(runLine('The optimized code', result));
    else if (!result.ok) {
      await ctx.log.error(
        `The optimized code still fails after ${plural(repairs.length, 'repair')}`,
      );
    }
    return {
      skipped: false,
      optimized_code: state,
      changes,
      execution: summarizeExecution(result),
      repairs,
      note: null,
    };
  },
});
