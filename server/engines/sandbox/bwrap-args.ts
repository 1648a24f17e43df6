import { lstatSync, readlinkSync } from 'node:fs';
import { ETC_SUPPORT_NAME } from './etc-dir';
import type { SandboxLimits } from './limits';
import { SUPPORT_DIR, WRAPPER_SCRIPT } from './support-files';

/** The writable working directory inside the sandbox (a tmpfs; HOME points at it too). */
export const WORK_DIR = '/work';

/** matplotlib's configuration and cache directory (it has to be writable). */
export const MATPLOTLIB_DIR = '/tmp/matplotlib';

/** The sandbox user: nobody, in a user namespace of its own. */
const SANDBOX_UID = '65534';

/** A file copied into the sandbox from a pipe (bwrap --file <fd> <dest>). */
export interface SandboxFile {
  /** Absolute path inside the sandbox. */
  dest: string;
  content: string | Buffer;
  /**
   * Mounted read-only (bwrap --ro-bind-data), for the caller's input data: the program can read
   * it but not change or delete it. Its folder is created when missing.
   */
  readOnly?: boolean;
}

export interface BwrapPlan {
  args: string[];
  /** Contents to write, in order, to the child's descriptors 4, 5, ...: the files, then the filter. */
  inputs: Array<string | Buffer>;
}

/** The merged-/usr links of the host (/bin -> usr/bin, ...), recreated inside the sandbox. */
function usrLinks(): string[] {
  const out: string[] = [];
  for (const dir of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    try {
      if (lstatSync(dir).isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir);
      else if (dir !== '/lib32' && dir !== '/libx32') out.push('--ro-bind', dir, dir);
    } catch {
      // absent on this host
    }
  }
  return out;
}

/**
 * The bwrap command line of one run: fresh namespaces of every kind (no network: only a
 * loopback of its own), /usr read-only, a size-capped tmpfs as the only writable place, a new
 * /proc showing only the sandbox's processes, an empty environment plus a few variables, a new
 * session (no terminal to push input into), death with the parent and the system-call filter,
 * which bwrap loads last, just before it runs the wrapper. The rlimits are set by
 * the wrapper script inside, after the user namespace exists, so RLIMIT_NPROC counts only the
 * sandbox's processes.
 */
export function buildBwrapArgs(input: {
  limits: SandboxLimits;
  /**
   * The prepared /etc (etc-dir.ts): copies of the parts of the host's /etc the runtimes need,
   * the sandbox's passwd and group, and the support files.
   */
  etcDir: string;
  /** Files for the working directory. */
  files: SandboxFile[];
  env: Record<string, string>;
  command: string[];
  /**
   * The system-call filter's BPF program (see seccomp.ts). Every run has one; null is only for
   * the test that shows what the filter stops.
   */
  seccomp: Buffer | null;
}): BwrapPlan {
  const { limits } = input;
  const mib = 1024 * 1024;
  const args: string[] = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    SANDBOX_UID,
    '--gid',
    SANDBOX_UID,
    '--hostname',
    'sandbox',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/usr',
    '/usr',
    ...usrLinks(),
    '--ro-bind',
    input.etcDir,
    '/etc',
    '--symlink',
    `/etc/${ETC_SUPPORT_NAME}`,
    SUPPORT_DIR,
  ];
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(limits.workDirMb * mib),
    '--tmpfs',
    WORK_DIR,
    '--size',
    String(limits.workDirMb * mib),
    '--tmpfs',
    '/tmp',
    '--size',
    String(16 * mib),
    '--tmpfs',
    '/dev/shm',
    '--dir',
    MATPLOTLIB_DIR,
  );
  const folders = new Set<string>();
  for (const file of input.files) {
    const folder = file.dest.slice(0, file.dest.lastIndexOf('/'));
    if (file.readOnly && folder !== WORK_DIR && !folders.has(folder)) {
      folders.add(folder);
      args.push('--dir', folder);
    }
  }
  input.files.forEach((file, i) =>
    args.push(file.readOnly ? '--ro-bind-data' : '--file', String(4 + i), file.dest),
  );
  const inputs: Array<string | Buffer> = input.files.map((file) => file.content);
  if (input.seccomp) {
    args.push('--seccomp', String(4 + inputs.length));
    inputs.push(input.seccomp);
  }
  // The root (bwrap's own tmpfs holding the mount points and the links) becomes read-only: /work, /tmp and /dev/shm stay the only writable places.
  args.push('--remount-ro', '/');
  args.push('--chdir', WORK_DIR, '--clearenv');
  for (const [k, v] of Object.entries(input.env)) args.push('--setenv', k, v);
  const kib = limits.memoryMb * 1024;
  const fileBlocks = (limits.maxFileMb * mib) / 512;
  args.push(
    '/bin/sh',
    '-c',
    WRAPPER_SCRIPT,
    'sandbox',
    String(limits.cpuSeconds),
    String(limits.cpuSeconds + 1),
    String(kib),
    String(limits.maxProcesses),
    String(fileBlocks),
    String(limits.maxFigureBytes),
    String(limits.maxFigures),
    ...input.command,
  );
  return { args, inputs };
}
