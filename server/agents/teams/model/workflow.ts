import { z } from 'zod';
import {
  CUSTOM_MODEL,
  MAX_TARGET_COLUMNS,
  TARGET_FREQUENCIES,
  developModelRequestSchema,
  modelPhases,
  targetColumnSchema,
  type ModelContext,
  type TargetDataInput,
} from '../../../../common/teams/model';
import type { WorkflowIo } from '../../../../common/workflows';
import { ModImportError } from '../../../engines/models/errors';
import { defineWorkflowAdapter, sessionResults } from '../../kit';
import { importSessionModFile } from './session-model';

/**
 * Model as a workflow step: the step's config is the start body without the project. What it
 * leaves out comes from the earlier steps: the focus is the chosen research question; the
 * review's report and verified references become the theory's context (the works it may cite);
 * with `targetColumns` (dataset column -> model variable) the Data step's dataset becomes the
 * target data, without them the documented targets stay and the dataset is only recorded. It
 * hands on the saved `.mod` file, the parameter table and the calibrated values.
 */
// Built from the start body's fields (its cross-field checks run again on the session's input).
const config = z
  .object(developModelRequestSchema.shape)
  .omit({ projectId: true })
  .extend({
    focus: developModelRequestSchema.shape.focus.optional(),
    targetColumns: z.array(targetColumnSchema).min(1).max(MAX_TARGET_COLUMNS).optional(),
    frequency: z.enum(TARGET_FREQUENCIES).optional(),
  })
  .strict()
  // A custom step's .mod file is imported when the workflow is created, as the develop route
  // does at a start, so a file the engine cannot read is refused then, not steps later.
  .superRefine((c, ctx) => {
    if (c.modelType !== CUSTOM_MODEL || !c.modFile) return;
    try {
      importSessionModFile({
        modelType: CUSTOM_MODEL,
        modFile: c.modFile,
        ...(c.modFileName ? { modFileName: c.modFileName } : {}),
      });
    } catch (err) {
      if (!(err instanceof ModImportError)) throw err;
      ctx.addIssue({
        code: 'custom',
        path: ['modFile'],
        message: `The .mod file cannot be imported: ${err.message} (construct: ${err.construct}, line ${err.line})`,
      });
    }
  });

export const modelWorkflow = defineWorkflowAdapter({
  config,
  feed(c, handoff) {
    const focus = c.focus ?? handoff.question?.text;
    if (!focus) {
      throw new Error(
        'The Model step needs a focus: give config.focus or put an Ideation step before it',
      );
    }
    const inputs: WorkflowIo[] = [];
    if (!c.focus) inputs.push({ kind: 'question', label: focus });

    let targetData: TargetDataInput | undefined = c.targetData;
    const dataset = handoff.dataset;
    if (!targetData && c.targetColumns) {
      if (!dataset) {
        throw new Error(
          'config.targetColumns maps dataset columns, but no earlier Data step produced a dataset',
        );
      }
      const unknown = c.targetColumns.find((t) => !dataset.columns.includes(t.column));
      if (unknown) {
        throw new Error(
          `config.targetColumns: the dataset '${dataset.name}' has no column '${unknown.column}' (its columns: ${dataset.columns.join(', ')})`,
        );
      }
      targetData = {
        datasetId: dataset.id,
        columns: c.targetColumns,
        ...(c.frequency ? { frequency: c.frequency } : {}),
      };
    }
    if (targetData) {
      inputs.push({
        kind: 'dataset',
        id: targetData.datasetId,
        label: `${dataset?.id === targetData.datasetId ? dataset.name : 'Dataset'} (target data: ${targetData.columns.map((t) => `${t.column} -> ${t.variable}`).join(', ')})`,
      });
    } else if (dataset) {
      inputs.push({
        kind: 'dataset',
        id: dataset.id,
        label: `${dataset.name} (recorded; no columns mapped, so the documented targets are used)`,
      });
    }

    let context: ModelContext | undefined;
    if (handoff.review) {
      context = {
        ...(handoff.review.documentId ? { reviewDocumentId: handoff.review.documentId } : {}),
        references: handoff.review.references,
      };
      if (handoff.review.documentId) {
        inputs.push({
          kind: 'document',
          id: handoff.review.documentId,
          label: 'Literature review report',
        });
      }
      const n = handoff.review.references.length;
      inputs.push({ kind: 'references', label: `${n} verified reference${n === 1 ? '' : 's'}` });
    }

    return {
      input: {
        modelType: c.modelType,
        focus,
        periods: c.periods,
        ...(targetData ? { targetData } : {}),
        ...(context ? { context } : {}),
        // a custom step's .mod file (its phases import it from the input)
        ...(c.modFile ? { modFile: c.modFile } : {}),
        ...(c.modFileName ? { modFileName: c.modFileName } : {}),
      },
      configuration: c.irfPeriods ? { irfPeriods: c.irfPeriods } : {},
      inputs,
    };
  },
  harvest(session) {
    const results = sessionResults(session, modelPhases);
    const documents = results.complete?.documents ?? [];
    const mod = documents.find((d) => d.kind === 'mod');
    const table = documents.find((d) => d.kind === 'calibration');
    const modelType = results.model?.description.type ?? String(session.input.modelType ?? '');
    const parameters = (results.calibration?.parameters ?? []).map((p) => ({
      name: p.name,
      value: p.value,
    }));
    return {
      handoff: {
        model: {
          modelType,
          ...(mod ? { modDocumentId: mod.id } : {}),
          ...(table ? { parameterDocumentId: table.id } : {}),
          parameters,
        },
      },
      outputs: [
        ...documents.map((d) => ({ kind: 'document' as const, id: d.id, label: d.name })),
        {
          kind: 'parameters' as const,
          label: `${parameters.length} calibrated parameter${parameters.length === 1 ? '' : 's'}`,
        },
      ],
    };
  },
});
