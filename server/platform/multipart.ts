import { AppError, badRequest } from './errors';
import { badTextError } from './text-input';

/**
 * What every upload route does with a multipart/form-data body besides its own fields: the
 * names and text of each part checked like any other text (no NUL or lone surrogate, which
 * PostgreSQL cannot store), and a body that is not well-formed multipart (no boundary, cut
 * short, a broken part header) answered 400 instead of surfacing as a server error.
 */

export const MALFORMED_MULTIPART =
  'The form data could not be read: the multipart body is malformed or cut short';

/**
 * Throws the text check's 400 when a part's field name, file name or value cannot be stored
 * (a file part's content is drained first, so the request can still end normally).
 */
export function checkPartText(part: {
  fieldname: string;
  filename?: string;
  value?: unknown;
  file?: { resume(): unknown };
}): void {
  const error = badTextError([part.fieldname, part.filename ?? '', part.value]);
  if (!error) return;
  part.file?.resume();
  throw error;
}

/**
 * The error to answer for a failure while reading the parts, once the route has mapped its own
 * limits: the route's and the checks' AppErrors and system errors (a full disk) as they are,
 * anything the multipart parser threw (a malformed or truncated body) as a 400.
 */
export function multipartFailure(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof Error && 'syscall' in error) return error;
  return badRequest(MALFORMED_MULTIPART);
}
