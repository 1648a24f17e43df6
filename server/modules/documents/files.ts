import path from 'node:path';
import { DOCUMENT_FORMATS, type DocumentFormat } from '../../../common/documents';
import { AppError, badRequest } from '../../platform/errors';

/**
 * Upload handling that treats the file as hostile: the client's file name is reduced to a safe
 * base name, only the listed formats are accepted, text must be valid UTF-8, and a PDF must be
 * one by its content (pdf.ts).
 */

const MAX_NAME = 200;

/** A safe display/download name: no directories, control or shell-special characters. */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // Control characters (C0, DEL, C1) and bidirectional overrides that can disguise extensions.
    .replace(/\p{Cc}|[\u202a-\u202e\u2066-\u2069]/gu, '')
    .replace(/[<>:"|?*`$;&{}[\]]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .trim();
  if (cleaned.length <= MAX_NAME) return cleaned;
  const ext = path.extname(cleaned).slice(0, 10);
  return cleaned.slice(0, MAX_NAME - ext.length) + ext;
}

/** The document format from a file name's extension, or a 400 naming the accepted ones. */
export function formatOfFileName(name: string): DocumentFormat {
  const ext = path.extname(name).slice(1).toLowerCase();
  const format = DOCUMENT_FORMATS.find((f) => f === ext);
  if (!format) {
    throw new AppError(
      'bad_request',
      `file: only ${DOCUMENT_FORMATS.map((f) => `.${f}`).join(' ')} files can be uploaded`,
    );
  }
  return format;
}

/** Decodes uploaded bytes as UTF-8 text; binary files are refused. */
export function decodeText(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('file: must be UTF-8 text');
  }
  if (text.includes('\u0000')) throw badRequest('file: must be text, not binary data');
  return text.replace(/^\uFEFF/, '');
}

/** Checks that content matches its declared format where that can be checked cheaply. */
export function checkContentFormat(format: DocumentFormat, content: string): void {
  if (format === 'json') {
    try {
      JSON.parse(content);
    } catch {
      throw badRequest('content: not valid JSON');
    }
  }
}

export const CONTENT_TYPES: Record<DocumentFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tex: 'text/plain; charset=utf-8',
  bib: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
};

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function attachmentHeader(name: string, format: DocumentFormat): string {
  const withExt = name.toLowerCase().endsWith(`.${format}`) ? name : `${name}.${format}`;
  const ascii = withExt.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(withExt)}`;
}
