import type { ProvenanceItem } from '../../../../../common/provenance';
import type { CompleteResult } from '../../../../../common/teams/model';
import { modelDefinition, phaseRow } from '../definition';
import { calibrationMarkdown, modelMarkdown, theoryMarkdown } from '../markdown';
import { calibrationItems, modelItems, modFileItems, theoryItems } from '../provenance-items';
import { sessionModFile } from '../session-mod-file';

/**
 * Phase 4: the theory, the model, the calibration and the .mod file saved as documents, each
 * with the session's final parameter values and the provenance of what it holds.
 */
export const completePhase = modelDefinition.phase('complete', {
  name: phaseRow('complete').name,
  description: 'Saves the theory, the model, the calibration and the .mod file as documents.',
  async run(ctx): Promise<CompleteResult> {
    const t = ctx.resultOf('theory');
    const m = ctx.resultOf('model');
    const c = ctx.resultOf('calibration');
    const title = m.description.title;
    const files: {
      kind: CompleteResult['documents'][number]['kind'];
      name: string;
      format: 'md' | 'txt';
      content: string;
      items: ProvenanceItem[];
    }[] = [
      {
        kind: 'theory',
        name: `${title}: theoretical framework`,
        format: 'md',
        content: theoryMarkdown(t),
        items: theoryItems(t),
      },
      {
        kind: 'model',
        name: `${title}: mathematical model`,
        format: 'md',
        content: modelMarkdown(m, c),
        items: modelItems(m, c),
      },
      {
        kind: 'calibration',
        name: `${title}: calibration results`,
        format: 'md',
        content: calibrationMarkdown(c),
        items: calibrationItems(m, c),
      },
      {
        kind: 'mod',
        name: `econagents_${ctx.input.modelType.toLowerCase()}.mod`,
        format: 'txt',
        content: sessionModFile(m, c),
        items: modFileItems(m, c),
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
          provenance: { items: f.items },
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
