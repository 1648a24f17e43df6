import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { AppError, badRequest } from '../../platform/errors';

/**
 * PDF uploads: the type is checked by content (a PDF header, not the file name), and the text
 * is extracted with unpdf (pdf.js) in a worker thread, so a large or hostile file never blocks
 * the request thread. One worker at a time (the machine's other core serves requests); it is
 * started on first use, replaced after a failure or a timeout, bounded in memory, and ends when
 * idle.
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

export interface PdfExtractorOptions {
  /** Longest a single file may take. */
  timeoutMs?: number;
  /** Heap limit of the worker, in MB. */
  maxMemoryMb?: number;
  /** The worker ends after this long without work. */
  idleMs?: number;
}

const replySchema = z.discriminatedUnion('ok', [
  z.object({ id: z.number(), ok: z.literal(true), pages: z.number(), text: z.string() }),
  z.object({ id: z.number(), ok: z.literal(false), name: z.string(), message: z.string() }),
]);

const WORKER_URL = new URL('./pdf-text.worker.mjs', import.meta.url);

/** Why a PDF could not be read, as the person uploading it needs to hear it. */
function refusal(name: string, message: string): AppError {
  if (name === 'PasswordException') {
    return badRequest('file: the PDF is password-protected; upload a copy without a password');
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || /invalid pdf/i.test(message)) {
    return badRequest('file: the PDF could not be read (it is damaged or not really a PDF)');
  }
  return badRequest('file: the PDF could not be read');
}

export function createPdfExtractor(options: PdfExtractorOptions = {}) {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxMemoryMb = options.maxMemoryMb ?? 512;
  const idleMs = options.idleMs ?? 30_000;
  let worker: Worker | undefined;
  /** The current worker has loaded its module (errors before that are the server's own). */
  let online = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  /** Jobs run one after another: each waits for the one before it. */
  let queue: Promise<unknown> = Promise.resolve();

  function start(): Worker {
    const w = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      // The worker needs no part of the server's environment (keys, secrets).
      env: {},
      stdout: false,
      stderr: false,
    });
    w.unref();
    online = false;
    w.once('online', () => {
      if (worker === w) online = true;
    });
    return w;
  }

  function stop(): void {
    const w = worker;
    worker = undefined;
    if (w) void w.terminate();
  }

  function run(bytes: Uint8Array): Promise<PdfText> {
    if (idleTimer) clearTimeout(idleTimer);
    worker ??= start();
    const w = worker;
    const id = nextId++;
    return new Promise<PdfText>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
      };
      const fail = (error: AppError) => {
        done();
        // Whatever state pdf.js was left in, the next file gets a fresh thread.
        if (worker === w) stop();
        reject(error);
      };
      const onMessage = (raw: unknown) => {
        const reply = replySchema.safeParse(raw);
        if (!reply.success || reply.data.id !== id) return;
        done();
        if (reply.data.ok) resolve({ text: reply.data.text, pages: reply.data.pages });
        else fail(refusal(reply.data.name, reply.data.message));
      };
      const onError = (error: Error) => {
        if (!online) {
          done();
          if (worker === w) stop();
          reject(new Error(`the PDF text worker did not start: ${error.message}`));
          return;
        }
        fail(
          /memory/i.test(error.message) ||
            (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new AppError('unprocessable', 'file: the PDF needs more memory to read than allowed')
            : badRequest('file: the PDF could not be read'),
        );
      };
      const onExit = () => fail(badRequest('file: the PDF could not be read'));
      const timer = setTimeout(
        () =>
          fail(
            new AppError(
              'unprocessable',
              `file: reading the PDF took longer than ${Math.round(timeoutMs / 1000)} s`,
            ),
          ),
        timeoutMs,
      );
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      // A copy: the transfer hands the buffer over to the worker.
      const copy = new Uint8Array(bytes);
      w.postMessage({ id, bytes: copy }, [copy.buffer]);
    }).finally(() => {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(stop, idleMs);
      idleTimer.unref();
    });
  }

  return {
    /** The PDF's text, pages separated by a blank line; 400/422 AppErrors for unreadable files. */
    extract(bytes: Uint8Array): Promise<PdfText> {
      const job = queue.then(() => run(bytes));
      queue = job.catch(() => undefined);
      return job;
    },
    /** Ends the worker now (tests, shutdown). */
    close(): void {
      if (idleTimer) clearTimeout(idleTimer);
      stop();
    },
  };
}
export type PdfExtractor = ReturnType<typeof createPdfExtractor>;
