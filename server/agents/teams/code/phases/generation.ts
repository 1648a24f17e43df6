import { CODE_FILES, CODE_LANGUAGE_LABELS } from '../../../../../common/teams/code';
import { lineCount, stripFences, summarizeExecution } from '../code-text';
import { codeDefinition, phaseRow } from '../definition';
import { generationAnswer, generationPrompt, repairAnswer, repairPrompt, SYSTEM } from '../prompts';
import { runWithRepairs } from '../repair';
import { runCode, runLine, timeLimit } from '../sandbox-runs';

/** Phase 1: the model writes the code, which runs in the sandbox (failures go back for repair). */
export const generationPhase = codeDefinition.phase('generation', {
  name: phaseRow('generation').name,
  description: 'Writes the code for the requirements and runs it in the sandbox.',
  requiresModel: true,
  async run(ctx) {
    const c = ctx.configuration;
    const { sandbox } = ctx.services;
    const answer = await ctx.llm.generateObject(generationAnswer, {
      system: SYSTEM,
      prompt: generationPrompt(ctx.input.requirements, c),
      schemaName: 'generated_code',
    });
    const code = stripFences(answer.object.code);
    await ctx.log(
      `The model wrote ${lineCount(code)} lines of ${CODE_LANGUAGE_LABELS[c.language]} code`,
    );
    const limit = await timeLimit(ctx.workspace);
    const { state, result, repairs } = await runWithRepairs({
      what: 'The generated code',
      succeeded: 'the generated code now runs',
      initial: { code, explanation: answer.object.explanation },
      run: async (s) => {
        const r = await runCode(sandbox, c, s.code, limit);
        if (r.kind !== 'unavailable') await ctx.log(runLine('The code', r));
        return r;
      },
      repair: async (s, failure) => {
        const fix = await ctx.llm.generateObject(repairAnswer, {
          system: SYSTEM,
          prompt: repairPrompt('generated code', s.code, failure, c),
          schemaName: 'repaired_code',
        });
        return {
          state: { code: stripFences(fix.object.code), explanation: s.explanation },
          changed: 'code',
        };
      },
      log: ctx.log,
    });
    if (result.kind === 'unavailable') await ctx.log.warn(runLine('The code', result));
    else if (!result.ok) {
      await ctx.log.error(`The generated code still fails after ${repairs.length} repair(s)`);
    }
    return {
      main_code: state.code,
      language: c.language,
      file_name: CODE_FILES[c.language].main,
      frameworks: c.frameworks,
      explanation: state.explanation,
      execution: summarizeExecution(result),
      repairs,
    };
  },
});
