import { z } from 'zod';
import {
  DEFAULT_FRAMEWORKS,
  REQUIREMENTS_MAX,
  codePhases,
  developRequestSchema,
  type WorkingFile,
} from '../../../../common/teams/code';
import type { WorkflowIo } from '../../../../common/workflows';
import { defineWorkflowAdapter, sessionResults, type Workspace } from '../../kit';

/**
 * Code as a workflow step: the step's config is the start body without the project, its
 * requirements optional. The Data step's dataset and the Model step's `.mod` file and parameter
 * table go into the session's `workingFiles` (placed read-only in the program's working
 * directory) and the requirements name them; without requirements of its own the step writes
 * the program for the chosen research question and the model. Unset language, frameworks and
 * mode come from the owner's Code Generation settings, as on the screen.
 */
const config = z
  .object(developRequestSchema.shape)
  .omit({ projectId: true })
  .extend({ requirements: developRequestSchema.shape.requirements.optional() })
  .strict();

/** A document's name, or `fallback` when it cannot be read (deleted since). */
async function documentName(workspace: Workspace, id: string, fallback: string): Promise<string> {
  try {
    return (await workspace.documents.read(id)).name;
  } catch {
    return fallback;
  }
}

/** The sentence that tells the program which files it is given. */
function filesParagraph(files: WorkingFile[], columns: string[]): string {
  const described = files.map((f) =>
    f.kind === 'dataset'
      ? `the dataset '${f.name}'${columns.length > 0 ? ` (columns: ${columns.slice(0, 40).join(', ')})` : ''}`
      : f.name.endsWith('.mod')
        ? `the Dynare model file '${f.name}'`
        : `the document '${f.name}'`,
  );
  return (
    `The program's working directory holds these project files, read-only: ${described.join('; ')}. ` +
    'Read them from there rather than inventing data or parameter values.'
  );
}

export const codeWorkflow = defineWorkflowAdapter({
  config,
  async feed(c, handoff, workspace) {
    const files: WorkingFile[] = [];
    const inputs: WorkflowIo[] = [];
    if (handoff.dataset) {
      files.push({ kind: 'dataset', id: handoff.dataset.id, name: handoff.dataset.name });
      inputs.push({ kind: 'dataset', id: handoff.dataset.id, label: handoff.dataset.name });
    }
    const model = handoff.model;
    for (const [id, fallback] of [
      [model?.modDocumentId, 'model.mod'],
      [model?.parameterDocumentId, 'parameters'],
    ] as const) {
      if (!id) continue;
      const name = await documentName(workspace, id, fallback);
      files.push({ kind: 'document', id, name });
      inputs.push({ kind: 'document', id, label: name });
    }

    let requirements = c.requirements;
    if (!requirements) {
      if (!model && !handoff.question && !handoff.dataset) {
        throw new Error(
          'The Code step needs requirements: give config.requirements or put a Model or Data step before it',
        );
      }
      const parts = [
        handoff.question ? `Research question: ${handoff.question.text}.` : '',
        model
          ? `Solve and simulate the calibrated ${model.modelType} model from its Dynare file, report its impulse responses and moments, and compare them with the data.`
          : 'Analyse the dataset: summary statistics, the main relationships and figures.',
      ];
      requirements = parts.filter(Boolean).join(' ');
      if (handoff.question) inputs.unshift({ kind: 'question', label: handoff.question.text });
    }
    if (files.length > 0) {
      requirements = `${requirements}\n\n${filesParagraph(files, handoff.dataset?.columns ?? [])}`;
    }

    const settings = (await workspace.settings.get()).codeGeneration;
    const language = c.language ?? settings.defaultLanguage;
    const frameworks =
      c.frameworks ??
      (settings.frameworks.length > 0
        ? settings.frameworks
        : language === 'python'
          ? [...DEFAULT_FRAMEWORKS]
          : []);
    return {
      input: {
        requirements: requirements.slice(0, REQUIREMENTS_MAX),
        ...(files.length > 0 ? { workingFiles: files } : {}),
      },
      configuration: {
        language,
        frameworks,
        workflowMode: c.workflowMode ?? settings.workflowMode,
      },
      inputs,
    };
  },
  harvest(session) {
    const tests = sessionResults(session, codePhases).tests;
    const outputs: WorkflowIo[] = [];
    if (tests?.documentId) {
      outputs.push({ kind: 'document', id: tests.documentId, label: 'Code package' });
    }
    return { handoff: {}, outputs };
  },
});
