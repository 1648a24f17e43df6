import type { CompleteResult } from '../../../../../common/teams/model';
import { modelDefinition, phaseRow } from '../definition';
import { calibrationMarkdown, modelMarkdown, theoryMarkdown } from '../markdown';

/** Phase 4: the theory, the model, the calibration and the .mod file saved as documents. */
export const completePhase = modelDefinition.phase('complete', {
  name: phaseRow('complete').name,
  description: 'Saves the theory, the model, the calibration and the .mod file as documents.',
  async run(ctx): Promise<CompleteResult> {
    const t = ctx.resultOf('theory');
    const m = ctx.resultOf('model');
    const c = ctx.resultOf('calibration');
    const title = m.description.title;
    const files = [
      {
        kind: 'theory' as const,
        name: `${title}: theoretical framework`,
        format: 'md' as const,
        content: theoryMarkdown(t),
      },
      {
        kind: 'model' as const,
        name: `${title}: mathematical model`,
        format: 'md' as const,
        content: modelMarkdown(m),
      },
      {
        kind: 'calibration' as const,
        name: `${title}: calibration results`,
        format: 'md' as const,
        content: calibrationMarkdown(c),
      },
      {
        kind: 'mod' as const,
        name: `econagents_${m.description.type.toLowerCase()}.mod`,
        format: 'txt' as const,
        content: m.modFile,
      },
    ];
    const documents: CompleteResult['documents'] = [];
    try {
      for (const f of files) {
        const doc = await ctx.workspace.documents.save({
          name: f.name,
          category: 'model_documentation',
          format: f.format,
          content: f.content,
          reproducible: f.kind === 'mod',
        });
        documents.push({ id: doc.id, name: doc.name, kind: f.kind });
        await ctx.log(`Saved the document "${doc.name}"`);
      }
    } catch (err) {
      const note = `The documents could not be saved: ${(err as Error).message}`;
      await ctx.log.warn(note);
      return { documents, note };
    }
    return { documents, note: null };
  },
});
