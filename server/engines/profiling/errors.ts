/**
 * Why a data file or a data request cannot be used. The message is written for the researcher
 * (it names the line, the column or what to do); routes answer it as a 400.
 */
export type DataErrorCode =
  | 'unsupported_type'
  | 'type_mismatch'
  | 'empty'
  | 'encoding'
  | 'ragged_rows'
  | 'malformed'
  | 'too_many_columns'
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
