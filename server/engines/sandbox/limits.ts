/**
 * The limits one execution runs under. Memory, processes, CPU time and file size are rlimits set
 * inside the sandbox (so they count only the sandbox's own processes, in its own user
 * namespace); wall time and output size are enforced from outside by killing the sandbox.
 */
export interface SandboxLimits {
  /** Wall time from start to kill, in seconds. */
  timeLimitSeconds: number;
  /** CPU time of each process (RLIMIT_CPU); a process past it gets SIGXCPU. */
  cpuSeconds: number;
  /** Address space of each process (RLIMIT_AS), in MiB. */
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
  // Octave, R and numpy start well inside 512 MiB of address space; 1 GiB leaves room for data.
  memoryMb: 1024,
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
