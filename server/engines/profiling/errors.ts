/**
 * Why a data file or a data request cannot be used. The message is written for the researcher
 * (it names the line, the column or what to do); routes answer it as a 400, or a 422 for
 * 'too_complex' (the file is well formed but past a limit the message names).
 */
export type DataErrorCode =
  | 'unsupported_type'
  | 'type_mismatch'
  | 'empty'
  | 'encoding'
  | 'ragged_rows'
  | 'malformed'
  | 'too_many_columns'
  /** Past a bound on the file's shape (JSON nesting, field names): answered 422, not 400. */
  | 'too_complex'
  | 'unknown_column'
  | 'invalid_request';

export class DataError extends Error {
  constructor(
    readonly code: DataErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DataError';
  }
}

export const isDataError = (e: unknown): e is DataError => e instanceof DataError;

/** A request checked against its schema; the first problem becomes the DataError's message. */
export function parseSpec<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  input: unknown,
): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  throw new DataError('invalid_request', `${where}${issue?.message ?? 'invalid request'}`);
}
