import { AppError, badRequest } from '../../platform/errors';
import {
  PdfRefusal,
  createPdfTextProcess,
  type PdfLimits,
  type PdfRefusalReason,
} from '../../platform/pdf-text';

/**
 * PDF uploads: the type is checked by content (a PDF header, not the file name), and the text
 * is extracted by pdf.js in a child process with an address-space limit
 * (server/platform/pdf-text.ts), so a large or hostile file neither blocks the request thread
 * nor grows the server. A file past a limit is refused with a 413 or 422 naming the limit.
 */

const HEADER = Buffer.from('%PDF-', 'latin1');

/** A PDF starts with its header (after at most some whitespace), whatever the file is called. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  let start = 0;
  while (start < bytes.length && start < 64 && [0x09, 0x0a, 0x0d, 0x20].includes(bytes[start]!))
    start++;
  return Buffer.from(
    bytes.buffer,
    bytes.byteOffset + start,
    Math.min(HEADER.length, bytes.length - start),
  ).equals(HEADER);
}

export interface PdfText {
  text: string;
  pages: number;
}

export type PdfExtractorOptions = Partial<PdfLimits> & {
  /** The process ends after this long without work. */
  idleMs?: number;
};

/** Past a limit on size: 413; past one on the work it takes: 422; a bad file: 400. */
const KIND: Record<PdfRefusalReason, 'bad_request' | 'too_large' | 'unprocessable'> = {
  unreadable: 'bad_request',
  password: 'bad_request',
  text: 'too_large',
  inflated: 'unprocessable',
  pages: 'unprocessable',
  time: 'unprocessable',
  memory: 'unprocessable',
};

export function createPdfExtractor(options: PdfExtractorOptions = {}) {
  const process = createPdfTextProcess(options);
  return {
    limits: process.limits,
    /** The PDF's text, pages separated by a blank line; 400/413/422 AppErrors for refusals. */
    async extract(bytes: Uint8Array): Promise<PdfText> {
      try {
        const { pages } = await process.extract(bytes);
        return { text: pages.join('\n\n'), pages: pages.length };
      } catch (error) {
        if (error instanceof PdfRefusal) {
          const message = `file: ${error.message}`;
          throw KIND[error.reason] === 'bad_request'
            ? badRequest(message)
            : new AppError(KIND[error.reason], message);
        }
        throw error;
      }
    },
    /** Ends the process now (tests, shutdown). */
    close: () => process.close(),
  };
}
export type PdfExtractor = ReturnType<typeof createPdfExtractor>;
