import {
  CUSTOM_MODEL,
  type ImportedMod,
  type ModelDescription,
  type ModelInput,
  type ModelKind,
} from '../../../../common/teams/model';
import { canonicalModel } from '../../../engines/models/library';
import { importModFile, type ModImport } from '../../../engines/models/mod-import';

/**
 * The model a session starts from: the library's canonical model of its type, or, for a custom
 * session, the researcher's .mod file as the engine imports it. The import is deterministic, so
 * each phase reads the file again from the session's input rather than storing a second copy.
 */

/** What a phase needs of the session's input (the workflow may add fields of its own). */
export type SessionModelInput = Pick<ModelInput, 'modelType' | 'modFile' | 'modFileName'>;

export function isCustomModel(input: { modelType: ModelKind }): boolean {
  return input.modelType === CUSTOM_MODEL;
}

/** Imports the session's .mod file (throws ModImportError naming the line and construct). */
export function importSessionModFile(input: SessionModelInput): ModImport {
  if (!input.modFile) throw new Error('A custom model session carries no .mod file');
  return importModFile(input.modFile, {
    ...(input.modFileName ? { fileName: input.modFileName } : {}),
  });
}

/** The canonical model, or the imported one for a custom session. */
export function startingModel(input: SessionModelInput): ModelDescription {
  return input.modelType === CUSTOM_MODEL
    ? importSessionModFile(input).description
    : canonicalModel(input.modelType);
}

/** The import's notes and the statements it did not run, as the results show them. */
export function importSummary(input: SessionModelInput, imported: ModImport): ImportedMod {
  return {
    fileName: input.modFileName ?? null,
    notes: imported.notes,
    notRun: imported.notRun,
  };
}

/** The focus a custom session gets when the researcher gives none. */
export function defaultCustomFocus(fileName: string | undefined): string {
  return `The researcher's own model${fileName ? ` (${fileName})` : ''}, imported from a Dynare .mod file`;
}
