/**
 * The limits one execution runs under. Processes, CPU time, file size and each process's address
 * space are rlimits set inside the sandbox (so they count only the sandbox's own processes, in its
 * own user namespace); wall time, output size and the memory of all the run's processes together
 * are enforced from outside by killing the sandbox.
 */
export interface SandboxLimits {
  /** Wall time from start to kill, in seconds. */
  timeLimitSeconds: number;
  /** CPU time of each process (RLIMIT_CPU); a process past it gets SIGXCPU. */
  cpuSeconds: number;
  /**
   * Memory of the whole run, in MiB: the resident memory of all its processes together (watched
   * from outside, see run-memory.ts), and the address space of each one (RLIMIT_AS), so a single
   * process meets a clean allocation failure before the watch has to kill the run.
   */
  memoryMb: number;
  /** Processes and threads of the sandbox together (RLIMIT_NPROC in its user namespace). */
  maxProcesses: number;
  /** stdout and stderr together; past it the sandbox is killed. */
  maxOutputBytes: number;
  /** Largest file the program may write (RLIMIT_FSIZE), in MiB. */
  maxFileMb: number;
  /** Size of the writable working directory (a tmpfs), in MiB; /tmp gets the same. */
  workDirMb: number;
  /** Figures (PNG or SVG in the working directory) returned with the output. */
  maxFigures: number;
  maxFigureBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  timeLimitSeconds: 60,
  cpuSeconds: 60,
  // Octave, R and numpy start well inside 512 MiB; 2 GiB for the whole run leaves room for data,
  // and four runs at once (the default concurrency) stay within 8 GiB of the server's memory.
  memoryMb: 2048,
  maxProcesses: 64,
  maxOutputBytes: 1_048_576,
  maxFileMb: 64,
  workDirMb: 128,
  maxFigures: 12,
  maxFigureBytes: 2_097_152,
};

/** The server's ceiling on any requested time limit (a user setting may ask for up to 600 s). */
export const DEFAULT_MAX_TIME_LIMIT_SECONDS = 120;

/**
 * The limits of one run: the defaults, the caller's overrides, and a requested time limit capped
 * by the server. CPU time never exceeds the wall time (a longer one could never be reached).
 */
export function resolveLimits(
  base: SandboxLimits,
  requestedSeconds: number | undefined,
  maxTimeLimitSeconds: number,
): SandboxLimits {
  const wanted = requestedSeconds ?? base.timeLimitSeconds;
  const time = Math.max(1, Math.min(Math.ceil(wanted), Math.ceil(maxTimeLimitSeconds)));
  return {
    ...base,
    timeLimitSeconds: time,
    cpuSeconds: Math.max(1, Math.min(base.cpuSeconds, time)),
  };
}
