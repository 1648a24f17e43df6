import { constants } from 'node:os';
import { parseChannel, type Figure } from './channel';
import type { SandboxLimits } from './limits';
import type { RawRun } from './spawn';

/** How an execution ended. Every kind but 'ok' comes with an error text meant for the user. */
export type ExecutionKind =
  | 'ok'
  /** The program exited with a non-zero status. */
  | 'exit'
  /** The program was killed by a signal it caused (segmentation fault, abort, ...). */
  | 'signal'
  | 'time-limit'
  | 'cpu-limit'
  | 'memory-limit'
  | 'process-limit'
  | 'file-limit'
  | 'output-limit'
  /** Nothing ran: no sandbox, or the language's runtime is not installed. */
  | 'unavailable'
  /** Nothing ran: the request was not runnable (no code, bad file names). */
  | 'invalid'
  /** bwrap itself failed to set the sandbox up. */
  | 'sandbox-error';

export interface ExecutionResult {
  ok: boolean;
  kind: ExecutionKind;
  /** stdout and stderr of the program as they arrived (cut at the output limit). */
  output: string;
  /** What went wrong, in one sentence; absent when ok. */
  error?: string;
  /** The program's exit status (128 + n when killed by signal n); null when it never finished. */
  exitCode: number | null;
  figures: Figure[];
  /** Figures left out (too large, too many), by name. */
  figuresSkipped: string[];
  durationMs: number;
  /** The limits it ran under (the time limit after the server's cap). */
  limits: SandboxLimits;
}

const SIGXCPU = 128 + constants.signals.SIGXCPU;
const SIGXFSZ = 128 + constants.signals.SIGXFSZ;

// Each runtime's words for a failed allocation or fork, matched on the end of the output only.
const MEMORY = [
  /MemoryError/,
  /cannot allocate (vector|memory|buffer)/i,
  /out of memory/i,
  /std::bad_alloc/,
  /OutOfMemoryError/,
  /memory exhausted/i,
  /Cannot allocate memory/,
];
const PROCESSES = [
  /Resource temporarily unavailable/,
  /can't start new thread/,
  /cannot fork/i,
  /Cannot fork/,
];
const DISK = [/No space left on device/, /File size limit exceeded/, /File too large/];

function signalName(n: number): string {
  const entry = Object.entries(constants.signals).find(([, v]) => v === n);
  return entry ? entry[0] : `signal ${n}`;
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round(bytes / 1024 / 1024)} MB`
    : `${Math.round(bytes / 1024)} KB`;
}

/** PostgreSQL text cannot hold U+0000; a program may print anything. */
export function cleanOutput(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

/** Turns what bwrap did into the result the caller sees. */
export function interpretRun(raw: RawRun, limits: SandboxLimits): ExecutionResult {
  const output = cleanOutput(raw.output);
  const report = parseChannel(raw.channel, limits.maxFigureBytes);
  const base = {
    output,
    exitCode: report.exitStatus,
    figures: report.figures,
    figuresSkipped: report.skipped.map((s) => s.name),
    durationMs: Math.round(raw.durationMs),
    limits,
  };
  const fail = (kind: ExecutionKind, error: string): ExecutionResult => ({
    ...base,
    ok: false,
    kind,
    error,
  });

  if (raw.spawnError !== undefined) {
    return fail('sandbox-error', `The sandbox could not be started: ${raw.spawnError}`);
  }
  if (raw.timedOut) {
    return fail(
      'time-limit',
      `Execution stopped: the time limit of ${limits.timeLimitSeconds} s was reached`,
    );
  }
  if (raw.memoryExceeded) {
    return fail(
      'memory-limit',
      `Execution stopped: the program's processes together used more than the memory limit of ` +
        `${limits.memoryMb} MB`,
    );
  }
  if (raw.outputExceeded) {
    return fail(
      'output-limit',
      `Execution stopped: the output passed the limit of ${mib(limits.maxOutputBytes)}`,
    );
  }
  const status = report.exitStatus;
  if (status === null) {
    // The wrapper never reported: bwrap failed before running it (its message is in the output).
    const first = output.trim().split('\n')[0] ?? '';
    return fail(
      'sandbox-error',
      `The sandbox could not run the code${first ? `: ${first}` : ` (bwrap exit ${raw.code ?? raw.signal})`}`,
    );
  }
  if (status === 0) return { ...base, ok: true, kind: 'ok' };

  const tail = output.slice(-4000);
  if (status === SIGXCPU) {
    return fail(
      'cpu-limit',
      `Execution stopped: the CPU time limit of ${limits.cpuSeconds} s was reached`,
    );
  }
  if (status === SIGXFSZ || DISK.some((re) => re.test(tail))) {
    return fail(
      'file-limit',
      `The program wrote more than the sandbox allows (one file up to ${limits.maxFileMb} MB, ` +
        `${limits.workDirMb} MB in all)`,
    );
  }
  if (MEMORY.some((re) => re.test(tail))) {
    return fail('memory-limit', `The program ran out of memory (limit: ${limits.memoryMb} MB)`);
  }
  if (PROCESSES.some((re) => re.test(tail))) {
    return fail(
      'process-limit',
      `The program tried to start too many processes or threads (limit: ${limits.maxProcesses})`,
    );
  }
  if (status > 128) {
    return fail('signal', `The program was killed by ${signalName(status - 128)}`);
  }
  return fail('exit', `The program exited with status ${status}`);
}
