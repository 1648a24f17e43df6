import { plural } from '../../../../../common/text';
import { CODE_FILES, CODE_LANGUAGE_LABELS } from '../../../../../common/teams/code';
import { lineCount, stripFences, summarizeExecution } from '../code-text';
import { codeDefinition, phaseRow } from '../definition';
import { generationAnswer, generationPrompt, repairAnswer, repairPrompt, SYSTEM } from '../prompts';
import { runWithRepairs } from '../repair';
import { runCode, runLine, timeLimit } from '../sandbox-runs';
import { dataFilesOf, readWorkingFiles, workingFilesPrompt } from '../working-files';

/**
 * Phase 1: the model writes the code, which runs in the sandbox (failures go back for repair),
 * with the project files the session was given placed read-only in data/.
 */
export const generationPhase = codeDefinition.phase('generation', {
  name: phaseRow('generation').name,
  description: 'Writes the code for the requirements and runs it in the sandbox.',
  requiresModel: true,
  async run(ctx) {
    const c = ctx.configuration;
    const { sandbox, profiling } = ctx.services;

    // The files are read first: one the user can no longer read stops the session here, before
    // any model call, with the reason.
    const files = await readWorkingFiles(ctx.input.workingFiles ?? [], {
      workspace: ctx.workspace,
      profiling,
    });
    for (const f of files) {
      ctx.provenance.input({ kind: f.placed.kind, id: f.placed.id, sha256: f.placed.sha256 });
      await ctx.log(
        `Placed ${f.placed.path} (the project ${f.placed.kind} "${f.placed.name}"` +
          (f.placed.rows !== null ? `, ${f.placed.rows} rows` : '') +
          ') read-only in the working directory',
      );
    }
    const placed = files.map((f) => f.placed);
    const dataFiles = dataFilesOf(files);
    const setting = { ...c, files: workingFilesPrompt(placed) };

    let answer = await ctx.llm.generateObject(generationAnswer, {
      system: SYSTEM,
      prompt: generationPrompt(ctx.input.requirements, setting),
      schemaName: 'generated_code',
    });
    if (!answer.object.code.trim()) {
      // Nothing is computed yet: one more request, then the session stops with the reason.
      await ctx.log.warn('The model answered without code; asking once more');
      answer = await ctx.llm.generateObject(generationAnswer, {
        system: SYSTEM,
        prompt: `${generationPrompt(ctx.input.requirements, setting)}\n\nYour last answer had no code: answer with the whole program in \`code\`.`,
        schemaName: 'generated_code',
      });
      if (!answer.object.code.trim()) {
        throw new Error('The model wrote no code, twice; nothing could be run');
      }
    }
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
        const r = await runCode(sandbox, c, s.code, limit, dataFiles);
        if (r.kind !== 'unavailable') await ctx.log(runLine('The code', r));
        return r;
      },
      repair: async (s, failure) => {
        const fix = await ctx.llm.generateObject(repairAnswer, {
          system: SYSTEM,
          prompt: repairPrompt('generated code', s.code, failure, setting),
          schemaName: 'repaired_code',
        });
        // An empty fix changes nothing: the code that ran is kept.
        if (!fix.object.code.trim()) return { state: s, changed: 'none' };
        const fixed = stripFences(fix.object.code);
        return {
          state: { code: fixed, explanation: s.explanation },
          changed: fixed === s.code ? 'none' : 'code',
        };
      },
      log: ctx.log,
      signal: ctx.signal,
    });
    if (result.kind === 'unavailable') await ctx.log.warn(runLine('The code', result));
    else if (!result.ok) {
      await ctx.log.error(
        `The generated code still fails after ${plural(repairs.length, 'repair')}`,
      );
    }
    const explanation = await ctx.citations.gate(state.explanation, {
      where: 'the explanation of the code',
    });
    return {
      main_code: state.code,
      language: c.language,
      file_name: CODE_FILES[c.language].main,
      frameworks: c.frameworks,
      explanation,
      execution: summarizeExecution(result),
      repairs,
      working_files: placed,
    };
  },
});
