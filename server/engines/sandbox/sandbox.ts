import { accessSync, constants } from 'node:fs';
import pLimit from 'p-limit';
import type { CodeLanguage } from '../../../common/settings';
import { buildBwrapArgs, MATPLOTLIB_DIR, WORK_DIR, type SandboxFile } from './bwrap-args';
import {
  DEFAULT_LIMITS,
  DEFAULT_MAX_TIME_LIMIT_SECONDS,
  resolveLimits,
  type SandboxLimits,
} from './limits';
import { interpretRun, type ExecutionResult } from './outcome';
import { detectRuntime, RUNTIMES, type RuntimeStatus } from './runtimes';
import { knownSeccompProblem, seccompFilter } from './seccomp';
import { spawnSandbox, type HostUser } from './spawn';
import { sandboxEtcDir } from './etc-dir';
import { SUPPORT_DIR } from './support-files';

export interface SandboxOptions {
  /** The bwrap executable; by default the first of /usr/bin/bwrap and /usr/local/bin/bwrap. */
  bwrapPath?: string;
  /** Overrides of the default limits. */
  limits?: Partial<SandboxLimits>;
  /** The ceiling on any requested time limit, in seconds. */
  maxTimeLimitSeconds?: number;
  /** Executions running at once; more wait their turn. */
  maxConcurrent?: number;
  /**
   * The host user bwrap runs as when the server runs as root (default nobody, 65534). The kernel
   * does not apply the process limit to root's processes, even inside a user namespace, and a
   * sandbox should not map to root on the host anyway.
   */
  hostUserWhenRoot?: HostUser;
}

export interface RunRequest {
  language: CodeLanguage;
  /** The program, saved as the main file. */
  code: string;
  /** More files for the working directory: tests, data (name -> text). */
  files?: Record<string, string>;
  /**
   * Input data placed read-only in the working directory's `data/` folder (name -> content),
   * e.g. a project's dataset as CSV: the program reads `data/<name>`.
   */
  dataFiles?: Record<string, string | Buffer>;
  /** 'run' (default) runs the main file; 'test' runs `testFile` with the language's test command. */
  mode?: 'run' | 'test';
  /** The main file's name; by default main.py, main.R, main.m, model.mod or main.jl. */
  mainFile?: string;
  /** The test file's name (mode 'test'); it must be among `files`. */
  testFile?: string;
  /** Requested wall time, capped by the server's maximum. */
  timeLimitSeconds?: number;
  /** Tighter limits for this run (tests use them to hit each limit quickly). */
  limits?: Partial<Omit<SandboxLimits, 'timeLimitSeconds'>>;
}

export interface SandboxStatus {
  /** Whether code can run at all (bubblewrap present and able to build a sandbox). */
  available: boolean;
  /** Why not, when not available. */
  message?: string;
  runtimes: RuntimeStatus[];
  maxTimeLimitSeconds: number;
}

export interface Sandbox {
  run(request: RunRequest): Promise<ExecutionResult>;
  status(): Promise<SandboxStatus>;
  readonly maxTimeLimitSeconds: number;
  /** Executions waiting for a free slot. */
  pending(): number;
}

export const NO_CODE = 'No code to execute';

export const NO_BWRAP =
  'Code execution is refused: bubblewrap (bwrap) is not installed on this server, and code is ' +
  'never run outside its sandbox. An administrator can install the Debian package bubblewrap.';

const FILE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}\.[A-Za-z]{1,8}$/;
const MAX_FILES = 20;
const MAX_FILES_BYTES = 4 * 1024 * 1024;
/** The read-only input data of one run, all files together. */
export const MAX_DATA_FILES_BYTES = 64 * 1024 * 1024;
/** The folder of the working directory that holds the read-only input data. */
export const DATA_DIR_NAME = 'data';
const PROBE_TTL_MS = 60_000;

const MAIN_FILE: Record<CodeLanguage, string> = {
  python: 'main.py',
  r: 'main.R',
  matlab: 'main.m',
  dynare: 'model.mod',
  julia: 'main.jl',
};

export function defaultMainFile(language: CodeLanguage): string {
  return MAIN_FILE[language];
}

function findBwrap(explicit: string | undefined): string | null {
  const candidates = explicit ? [explicit] : ['/usr/bin/bwrap', '/usr/local/bin/bwrap'];
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // try the next
    }
  }
  return null;
}

/** The environment inside the sandbox: nothing of the server's, only what the runtimes need. */
const SANDBOX_ENV: Record<string, string> = {
  PATH: '/usr/bin:/bin',
  HOME: WORK_DIR,
  USER: 'sandbox',
  LOGNAME: 'sandbox',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TMPDIR: '/tmp',
  MPLBACKEND: 'Agg',
  // One thread per BLAS call: threads count against the process limit and reserve memory.
  OPENBLAS_NUM_THREADS: '1',
  OMP_NUM_THREADS: '1',
  PYTHONPATH: `${SUPPORT_DIR}/python`,
  PYTHONUNBUFFERED: '1',
  PYTHONDONTWRITEBYTECODE: '1',
  // matplotlib's configuration and cache; the font list is copied in (see matplotlibFontCache).
  MPLCONFIGDIR: MATPLOTLIB_DIR,
  R_DEFAULT_DEVICE: 'png',
  OCTAVE_SITE_INITFILE: `${SUPPORT_DIR}/octave/siterc.m`,
};

/**
 * matplotlib builds a list of the system's fonts on first use (about a third of a second) and
 * every sandbox starts empty, so the list is built once, in a sandbox, and copied into later ones.
 */
const FONT_CACHE_SCRIPT = `import os, sys
import matplotlib, matplotlib.font_manager as fm
name = "fontlist-v%s.json" % fm.FontManager.__version__
with open(os.path.join(matplotlib.get_cachedir(), name)) as f:
    sys.stdout.write(name + "\\n" + f.read())
`;

function parseFontCache(output: string): SandboxFile | null {
  const nl = output.indexOf('\n');
  const name = output.slice(0, nl);
  const content = output.slice(nl + 1);
  if (nl < 0 || !/^fontlist-v\d+\.json$/.test(name)) return null;
  try {
    JSON.parse(content);
  } catch {
    return null;
  }
  return { dest: `${MATPLOTLIB_DIR}/${name}`, content };
}

function invalid(message: string, limits: SandboxLimits): ExecutionResult {
  return {
    ok: false,
    kind: 'invalid',
    output: '',
    error: message,
    exitCode: null,
    figures: [],
    figuresSkipped: [],
    durationMs: 0,
    limits,
  };
}

function unavailable(message: string, limits: SandboxLimits): ExecutionResult {
  return { ...invalid(message, limits), kind: 'unavailable' };
}

/** Checks the request's files; returns an error text or the files to copy in. */
function workFiles(request: RunRequest, mainFile: string): string | SandboxFile[] {
  const named: Record<string, string> = { ...request.files, [mainFile]: request.code };
  const names = Object.keys(named);
  if (names.length > MAX_FILES) return `At most ${MAX_FILES} files can be run together`;
  let bytes = 0;
  for (const name of names) {
    if (!FILE_NAME.test(name)) {
      return `File name '${name.slice(0, 80)}' is not allowed (letters, digits and _ then an extension)`;
    }
    bytes += Buffer.byteLength(named[name]!);
  }
  if (bytes > MAX_FILES_BYTES) return 'The files are too large to run';
  if (request.mode === 'test') {
    if (!request.testFile || !(request.testFile in named)) return 'No test file to run';
  }
  const data = Object.entries(request.dataFiles ?? {});
  if (names.length + data.length > MAX_FILES)
    return `At most ${MAX_FILES} files can be run together`;
  let dataBytes = 0;
  for (const [name, content] of data) {
    if (!FILE_NAME.test(name)) {
      return `Data file name '${name.slice(0, 80)}' is not allowed (letters, digits and _ then an extension)`;
    }
    dataBytes += typeof content === 'string' ? Buffer.byteLength(content) : content.length;
  }
  if (dataBytes > MAX_DATA_FILES_BYTES) return 'The data files are too large to run';
  return [
    ...names.map((name) => ({ dest: `${WORK_DIR}/${name}`, content: named[name]! })),
    ...data.map(([name, content]) => ({
      dest: `${WORK_DIR}/${DATA_DIR_NAME}/${name}`,
      content,
      readOnly: true,
    })),
  ];
}

/**
 * Which runtimes are installed and whether bubblewrap is there, from file checks only (cheap
 * enough for every GET /api/agents/status), and whether the system-call filter failed to build.
 * `Sandbox.status()` also tries a sandbox.
 */
export function listRuntimes(bwrapPath?: string): {
  sandbox: { available: boolean; message?: string };
  runtimes: RuntimeStatus[];
} {
  const runtimes = Object.values(RUNTIMES).map(detectRuntime);
  if (!findBwrap(bwrapPath)) return { sandbox: { available: false, message: NO_BWRAP }, runtimes };
  const filterProblem = knownSeccompProblem();
  return filterProblem
    ? { sandbox: { available: false, message: filterProblem }, runtimes }
    : { sandbox: { available: true }, runtimes };
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const baseLimits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const maxTimeLimitSeconds = options.maxTimeLimitSeconds ?? DEFAULT_MAX_TIME_LIMIT_SECONDS;
  const slots = pLimit(options.maxConcurrent ?? 4);
  const runAs =
    process.getuid?.() === 0 ? (options.hostUserWhenRoot ?? { uid: 65534, gid: 65534 }) : undefined;
  let probe: { at: number; result: Promise<string | null> } | null = null;
  let fontCache: Promise<SandboxFile | null> | null = null;
  // Built now, once per process, so the first run does not wait for it.
  void seccompFilter();

  async function execute(
    bwrap: string,
    limits: SandboxLimits,
    files: SandboxFile[],
    command: string[],
  ): Promise<ExecutionResult> {
    const filter = await seccompFilter();
    if (!filter.ok) return unavailable(filter.message, limits);
    let etcDir: string;
    try {
      etcDir = await sandboxEtcDir(runAs !== undefined);
    } catch (err) {
      return unavailable(
        `Code execution is unavailable: the sandbox's files could not be prepared (${(err as Error).message})`,
        limits,
      );
    }
    const plan = buildBwrapArgs({
      limits,
      etcDir,
      files,
      env: SANDBOX_ENV,
      command,
      seccomp: filter.bpf,
    });
    const raw = await spawnSandbox(
      bwrap,
      plan,
      {
        wallTimeMs: limits.timeLimitSeconds * 1000,
        maxOutputBytes: limits.maxOutputBytes,
        // Frames for each figure plus their headers and the exit line.
        maxChannelBytes: limits.maxFigures * (limits.maxFigureBytes + 300) + 4096,
        memoryBytes: limits.memoryMb * 1024 * 1024,
      },
      runAs,
    );
    return interpretRun(raw, limits);
  }

  function matplotlibFontCache(bwrap: string, python: string): Promise<SandboxFile | null> {
    fontCache ??= execute(
      bwrap,
      resolveLimits(baseLimits, 60, 60),
      [{ dest: `${WORK_DIR}/fonts.py`, content: FONT_CACHE_SCRIPT }],
      [python, '-B', 'fonts.py'],
    ).then((r) => (r.ok ? parseFontCache(r.output) : null));
    return fontCache;
  }

  /** Whether bwrap can build a sandbox here (user namespaces allowed); null when it can. */
  function sandboxProblem(bwrap: string): Promise<string | null> {
    if (probe && Date.now() - probe.at < PROBE_TTL_MS) return probe.result;
    const limits = resolveLimits(baseLimits, 10, 10);
    const result = execute(bwrap, limits, [], ['/bin/true']).then((r) => {
      if (r.ok) return null;
      // A refusal (no filter) says so itself; a failed sandbox is explained.
      if (r.kind === 'unavailable' && r.error) return r.error;
      return `Code execution is unavailable: ${r.error ?? 'the sandbox failed'}`;
    });
    probe = { at: Date.now(), result };
    return result;
  }

  return {
    maxTimeLimitSeconds,
    pending: () => slots.pendingCount,

    async run(request) {
      const limits = resolveLimits(
        { ...baseLimits, ...request.limits },
        request.timeLimitSeconds,
        maxTimeLimitSeconds,
      );
      if (request.code.trim() === '') return invalid(NO_CODE, limits);
      const bwrap = findBwrap(options.bwrapPath);
      if (!bwrap) return unavailable(NO_BWRAP, limits);
      const spec = RUNTIMES[request.language];
      const runtime = detectRuntime(spec);
      if (!runtime.available || !runtime.command) {
        return unavailable(runtime.message ?? spec.missing, limits);
      }
      const mainFile = request.mainFile ?? defaultMainFile(request.language);
      const files = workFiles(request, mainFile);
      if (typeof files === 'string') return invalid(files, limits);
      const command =
        request.mode === 'test'
          ? spec.test(request.testFile!, mainFile, runtime.command)
          : spec.run(mainFile, runtime.command);
      if (request.language === 'python' && runtime.libraries?.includes('matplotlib')) {
        const cache = await matplotlibFontCache(bwrap, runtime.command);
        if (cache) files.push(cache);
      }
      return slots(() => execute(bwrap, limits, files, command));
    },

    async status() {
      const runtimes = Object.values(RUNTIMES).map(detectRuntime);
      const bwrap = findBwrap(options.bwrapPath);
      if (!bwrap) return { available: false, message: NO_BWRAP, runtimes, maxTimeLimitSeconds };
      const problem = await sandboxProblem(bwrap);
      return problem
        ? { available: false, message: problem, runtimes, maxTimeLimitSeconds }
        : { available: true, runtimes, maxTimeLimitSeconds };
    },
  };
}
