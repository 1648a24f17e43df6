/**
 * Failures of the model engine. Each says what failed in words a researcher can act on; the
 * `code` lets callers (the team, the routes) tell a bad model from a bad request.
 */
export type ModelErrorCode =
  | 'invalid_input' // a request the engine cannot run (unknown type, periods out of range)
  | 'invalid_model' // the description is inconsistent (names, counts, parameters)
  | 'parse_error' // an equation or formula does not parse
  | 'steady_state' // Newton's method did not find a steady state
  | 'blanchard_kahn' // no unique stable solution
  | 'singular' // the linearised model is singular (dependent equations, rank condition)
  | 'perfect_foresight' // the stacked Newton solver did not converge
  | 'mod_import' // a Dynare .mod file uses a construct the importer does not accept
  | 'dynare'; // running Dynare failed

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    /** Further lines, e.g. one per failing equation. */
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export function isModelError(err: unknown): err is ModelError {
  return err instanceof ModelError;
}

/**
 * A .mod file the importer refuses: `line` (1-based) and `construct` say where and what, so
 * the API can answer 422 with both.
 */
export class ModImportError extends ModelError {
  constructor(
    readonly line: number,
    readonly construct: string,
    message: string,
  ) {
    super('mod_import', `Line ${line}: ${message}`);
    this.name = 'ModImportError';
  }
}
