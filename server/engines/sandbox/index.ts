/**
 * The code sandbox: runs Python, R, MATLAB (Octave), Dynare and Julia code under bubblewrap,
 * without network, with a read-only system, a private size-capped working directory and limits
 * on time, CPU, memory, processes and output. Never runs anything without bubblewrap.
 */
export {
  createSandbox,
  DATA_DIR_NAME,
  defaultMainFile,
  listRuntimes,
  MAX_DATA_FILES_BYTES,
  NO_BWRAP,
  NO_CODE,
} from './sandbox';
export { sandboxService } from './service';
export type { RunRequest, Sandbox, SandboxOptions, SandboxStatus } from './sandbox';
export type { ExecutionKind, ExecutionResult } from './outcome';
export type { Figure } from './channel';
export { DEFAULT_LIMITS, DEFAULT_MAX_TIME_LIMIT_SECONDS, type SandboxLimits } from './limits';
export { RUNTIMES, detectRuntime, type RuntimeStatus } from './runtimes';
