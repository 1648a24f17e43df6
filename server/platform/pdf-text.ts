import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * PDF text extraction in a child process with an address-space limit. pdf.js (through unpdf)
 * reads the file there, never in the server: a thread's heap limit does not cover the buffers
 * pdf.js inflates streams into, so a 2 MB file inflating to 2 GiB grew the whole server by
 * gigabytes. The child runs under `ulimit -v` (whatever it allocates, it cannot pass the limit),
 * with a heap limit below that, and the file is refused with a reason the caller turns into a
 * 413 or 422 when it passes one of the limits: the content inflated past `maxInflatedBytes`
 * (checked before pdf.js starts), more than `maxPages` pages, text past `maxTextBytes`, longer
 * than `timeoutMs`, or more memory than the process may have. One file at a time; the process
 * starts on first use, is replaced after any failure, and ends when idle. It gets none of the
 * server's environment (keys, secrets).
 */

export interface PdfLimits {
  /** Memory the extraction may use, in MB, on top of Node's own reservations. */
  memoryMb: number;
  /** Longest one file may take. */
  timeoutMs: number;
  maxPages: number;
  /** Total size of the file's Flate streams once inflated. */
  maxInflatedBytes: number;
  /** Size of the extracted text (UTF-8). */
  maxTextBytes: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  memoryMb: 512,
  timeoutMs: 60_000,
  maxPages: 2000,
  maxInflatedBytes: 256 * 1024 * 1024,
  maxTextBytes: 64 * 1024 * 1024,
};

/**
 * Address space Node reserves without using it (the code range, the heap's reservations, thread
 * stacks and malloc arenas: about 780 MB measured on Node 20 with two arenas), given to the
 * child on top of `memoryMb`; resident memory stays near what the extraction really uses.
 */
export const NODE_ADDRESS_SPACE_MB = 1024;

export type PdfRefusalReason =
  'unreadable' | 'password' | 'pages' | 'inflated' | 'text' | 'time' | 'memory';

/** A file the extractor will not read, and which limit or problem stopped it. */
export class PdfRefusal extends Error {
  constructor(
    readonly reason: PdfRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'PdfRefusal';
  }
}

export interface PdfPages {
  /** The text of each page, in order. */
  pages: string[];
  /** From the document's Info dictionary, where present. */
  info: { title?: string; author?: string; doi?: string };
}

const replySchema = z.discriminatedUnion('ok', [
  z.object({
    id: z.number(),
    ok: z.literal(true),
    pages: z.array(z.string()),
    info: z.object({
      title: z.string().optional(),
      author: z.string().optional(),
      doi: z.string().optional(),
    }),
  }),
  z.object({
    id: z.number(),
    ok: z.literal(false),
    name: z.string(),
    message: z.string(),
    reason: z.string(),
  }),
]);

const CHILD_PATH = fileURLToPath(new URL('./pdf-text.child.mjs', import.meta.url));

/** Out-of-memory as V8, Node and the C library say it, whichever part hit the limit first. */
const OUT_OF_MEMORY = /out of memory|allocation failed|Fatal process OOM|Cannot allocate memory/i;

function refusalOf(limits: PdfLimits, name: string, message: string, reason: string): PdfRefusal {
  switch (reason) {
    case 'pages':
      return new PdfRefusal(
        'pages',
        `the PDF has ${message} pages; the limit is ${limits.maxPages}`,
      );
    case 'inflated':
      return new PdfRefusal(
        'inflated',
        `the PDF's compressed content unpacks to more than the limit of ${mb(limits.maxInflatedBytes)}`,
      );
    case 'text':
      return new PdfRefusal(
        'text',
        `the PDF's text is larger than the limit of ${mb(limits.maxTextBytes)}`,
      );
  }
  if (OUT_OF_MEMORY.test(message)) return memoryRefusal(limits);
  if (name === 'PasswordException') {
    return new PdfRefusal(
      'password',
      'the PDF is password-protected; upload a copy without a password',
    );
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || /invalid pdf/i.test(message)) {
    return new PdfRefusal(
      'unreadable',
      'the PDF could not be read (it is damaged or not really a PDF)',
    );
  }
  return new PdfRefusal('unreadable', 'the PDF could not be read');
}

const memoryRefusal = (limits: PdfLimits) =>
  new PdfRefusal(
    'memory',
    `the PDF needs more memory to read than the limit of ${limits.memoryMb} MB`,
  );

function mb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

export function createPdfTextProcess(options: Partial<PdfLimits> & { idleMs?: number } = {}) {
  const limits: PdfLimits = { ...DEFAULT_PDF_LIMITS, ...options };
  const idleMs = options.idleMs ?? 30_000;
  let child: ChildProcess | undefined;
  /** Resolves once the current child has loaded pdf.js; rejects when it could not start. */
  let ready: Promise<void> | undefined;
  let stderrTail = '';
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  /** Files are read one after another: each waits for the one before it. */
  let queue: Promise<unknown> = Promise.resolve();

  function start(): { child: ChildProcess; ready: Promise<void> } {
    const heapMb = Math.max(64, Math.floor(limits.memoryMb / 2));
    const addressSpaceKb = (NODE_ADDRESS_SPACE_MB + limits.memoryMb) * 1024;
    const childLimits = {
      maxPages: limits.maxPages,
      maxInflatedBytes: limits.maxInflatedBytes,
      maxTextBytes: limits.maxTextBytes,
    };
    // `ulimit -v` applies to the shell, which then becomes node (exec): the limit holds for the
    // whole process, every allocation included.
    const proc = spawn(
      '/bin/sh',
      [
        '-c',
        'ulimit -v "$0" && exec "$@"',
        String(addressSpaceKb),
        process.execPath,
        `--max-old-space-size=${heapMb}`,
        CHILD_PATH,
        JSON.stringify(childLimits),
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'advanced',
        // Fewer malloc arenas: less address space reserved and never used.
        env: { MALLOC_ARENA_MAX: '2' },
      },
    );
    stderrTail = '';
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-4096);
    });
    proc.once('exit', () => {
      if (child === proc) {
        child = undefined;
        ready = undefined;
      }
    });
    proc.unref();
    proc.channel?.unref();
    const started = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (typeof message === 'object' && message !== null && 'ready' in message) {
          proc.off('exit', onExit);
          proc.off('message', onMessage);
          resolve();
        }
      };
      const onExit = (code: number | null, signal: string | null) => {
        proc.off('message', onMessage);
        reject(
          new Error(
            `the PDF text process did not start (exit ${code ?? signal}): ${stderrTail.trim().slice(-500)}`,
          ),
        );
      };
      proc.on('message', onMessage);
      proc.once('exit', onExit);
      proc.once('error', (error) => reject(error));
    });
    started.catch(() => undefined);
    return { child: proc, ready: started };
  }

  function stop(): void {
    const proc = child;
    child = undefined;
    ready = undefined;
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }

  async function run(bytes: Uint8Array): Promise<PdfPages> {
    if (idleTimer) clearTimeout(idleTimer);
    if (!child) ({ child, ready } = start());
    const proc = child;
    try {
      await ready;
    } catch (error) {
      if (child === proc) stop();
      throw error;
    }
    const id = nextId++;
    return new Promise<PdfPages>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        proc.off('message', onMessage);
        proc.off('exit', onExit);
      };
      const fail = (error: PdfRefusal) => {
        done();
        // Whatever state pdf.js was left in, the next file gets a fresh process.
        if (child === proc) stop();
        reject(error);
      };
      const onMessage = (raw: unknown) => {
        const reply = replySchema.safeParse(raw);
        if (!reply.success || reply.data.id !== id) return;
        if (reply.data.ok) {
          done();
          resolve({ pages: reply.data.pages, info: reply.data.info });
        } else {
          const { name, message, reason } = reply.data;
          fail(refusalOf(limits, name, message, reason));
        }
      };
      const onExit = () => {
        // Killed by the limit (V8's abort, a failed mmap) or a crash in pdf.js: the file's fault.
        fail(
          OUT_OF_MEMORY.test(stderrTail)
            ? memoryRefusal(limits)
            : new PdfRefusal('unreadable', 'the PDF could not be read'),
        );
      };
      const timer = setTimeout(
        () =>
          fail(
            new PdfRefusal(
              'time',
              `reading the PDF took longer than the limit of ${Math.round(limits.timeoutMs / 1000)} s`,
            ),
          ),
        limits.timeoutMs,
      );
      proc.on('message', onMessage);
      proc.once('exit', onExit);
      proc.send({ id, bytes });
    }).finally(() => {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(stop, idleMs);
      idleTimer.unref();
    });
  }

  return {
    limits,
    /** The text of each page and the Info fields; PdfRefusal for files it will not read. */
    extract(bytes: Uint8Array): Promise<PdfPages> {
      const job = queue.then(() => run(bytes));
      queue = job.catch(() => undefined);
      return job;
    },
    /** Ends the process now (tests, shutdown). */
    close(): void {
      if (idleTimer) clearTimeout(idleTimer);
      stop();
    },
  };
}
export type PdfTextProcess = ReturnType<typeof createPdfTextProcess>;
