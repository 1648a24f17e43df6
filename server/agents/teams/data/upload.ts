import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { DataError } from '../../../engines/profiling/index';
import { AppError, badRequest } from '../../../platform/errors';
import { checkPartText, multipartFailure } from '../../../platform/multipart';

/**
 * Reads a multipart upload with one file part into `dir`, streamed to disk (a 100 MB file never
 * sits in memory), and the text fields next to it. Past the limit the part is cut and the
 * request answered 413.
 */
export async function receiveUpload(
  request: FastifyRequest,
  dir: string,
  limitBytes: number,
): Promise<{ fields: Record<string, string>; file: string; fileName: string }> {
  if (!request.isMultipart()) {
    throw badRequest('file: send multipart/form-data with one file part');
  }
  const fields: Record<string, string> = {};
  let saved: { file: string; fileName: string } | undefined;
  try {
    for await (const part of request.parts({
      limits: { fileSize: limitBytes, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
    })) {
      if (part.type === 'file') {
        checkPartText(part);
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest(`${part.fieldname}: unexpected file part; send it as "file"`);
        }
        const fileName = path.basename(part.filename || '').slice(0, 200);
        if (!fileName) {
          part.file.resume();
          throw badRequest('file: the file needs a name ending in .csv or .json');
        }
        // The stored name is fixed; the user's name is only kept as text.
        const file = path.join(dir, `upload${path.extname(fileName).toLowerCase().slice(0, 10)}`);
        await pipeline(part.file, createWriteStream(file));
        if (part.file.truncated) throw tooLarge(limitBytes);
        saved = { file, fileName };
      } else {
        checkPartText(part);
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(limitBytes);
    if (code === 'FST_FILES_LIMIT') throw badRequest('file: send exactly one file');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw badRequest('Too many form fields');
    }
    throw multipartFailure(error);
  }
  if (!saved) {
    await rm(dir, { recursive: true, force: true });
    throw badRequest('Please upload a data file first');
  }
  return { fields, ...saved };
}

function tooLarge(limit: number): AppError {
  const mb = limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MB` : `${limit} bytes`;
  return new AppError('too_large', `file: larger than the ${mb} upload limit`);
}

/** A JSON form field parsed (a bad one is a 400 naming the field). */
export function jsonField(fields: Record<string, string>, name: string): unknown {
  const raw = fields[name];
  if (raw === undefined || raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw badRequest(`${name}: not valid JSON`);
  }
}

/**
 * A data file the engine refused, as the reply says it: 422 when the file is past a limit on its
 * shape (the message names the limit), 400 for everything else wrong with it.
 */
export function refuseDataFile(e: DataError, prefix = 'file: '): AppError {
  return new AppError(
    e.code === 'too_complex' ? 'unprocessable' : 'bad_request',
    `${prefix}${e.message}`,
  );
}
