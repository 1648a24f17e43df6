import { execFile } from 'node:child_process';

/**
 * The sandbox's system-call filter, handed to bubblewrap (`--seccomp <fd>`), which loads it just
 * before it runs the wrapper script, so it binds every process of the run. The namespaces already
 * keep a program away from the host; the filter closes the kernel interfaces a program could use
 * to attack the kernel itself or the sandbox's other processes, none of which data analysis needs.
 *
 * Denied calls fail with EPERM, which programs handle as an ordinary failure. Calls made through
 * another system-call table (the 32-bit `int 0x80` or x32 tables of an x86_64 kernel) kill the
 * process: the filter is written for the x86_64 table only, and numbers of another table would
 * slip past it.
 *
 * The BPF program is written by libseccomp (Debian's python3-seccomp binding, run once per server
 * process) and kept in memory. Without it no code runs (see `SECCOMP_UNAVAILABLE`).
 */

/** A denied call with its x86_64 number (the tests call each by number). */
export interface DeniedSyscall {
  name: string;
  nr: number;
}

/** Denied outright, whatever the arguments. */
export const DENIED_SYSCALLS: readonly DeniedSyscall[] = [
  // Reading or changing other processes (the sandbox's init among them).
  { name: 'ptrace', nr: 101 },
  { name: 'process_vm_readv', nr: 310 },
  { name: 'process_vm_writev', nr: 311 },
  // Large kernel interfaces with a long record of privilege escalations.
  { name: 'io_uring_setup', nr: 425 },
  { name: 'io_uring_enter', nr: 426 },
  { name: 'io_uring_register', nr: 427 },
  { name: 'keyctl', nr: 250 },
  { name: 'add_key', nr: 248 },
  { name: 'request_key', nr: 249 },
  { name: 'bpf', nr: 321 },
  { name: 'perf_event_open', nr: 298 },
  { name: 'userfaultfd', nr: 323 },
  // The kernel's own administration.
  { name: 'kexec_load', nr: 246 },
  { name: 'kexec_file_load', nr: 320 },
  { name: 'init_module', nr: 175 },
  { name: 'finit_module', nr: 313 },
  { name: 'delete_module', nr: 176 },
  { name: 'reboot', nr: 169 },
  { name: 'swapon', nr: 167 },
  { name: 'swapoff', nr: 168 },
  { name: 'acct', nr: 163 },
  { name: 'syslog', nr: 103 },
  { name: 'iopl', nr: 172 },
  { name: 'ioperm', nr: 173 },
  // Opening files by handle bypasses the mount namespace's view of the file system.
  { name: 'open_by_handle_at', nr: 304 },
  // Changing the file-system view the sandbox was built with.
  { name: 'mount', nr: 165 },
  { name: 'umount2', nr: 166 },
  { name: 'pivot_root', nr: 155 },
  { name: 'chroot', nr: 161 },
  { name: 'move_mount', nr: 429 },
  { name: 'open_tree', nr: 428 },
  { name: 'fsopen', nr: 430 },
  { name: 'fsmount', nr: 432 },
  { name: 'fsconfig', nr: 431 },
  { name: 'fspick', nr: 433 },
  { name: 'mount_setattr', nr: 442 },
  // Leaving or entering namespaces.
  { name: 'unshare', nr: 272 },
  { name: 'setns', nr: 308 },
];

/**
 * personality() may only ask for the current value (0xffffffff, which the C library passes as a
 * 32-bit value); every change is refused, as the others switch off address-space randomisation or
 * change how system calls behave. Python, R and Octave never call it at start.
 */
export const PERSONALITY = { name: 'personality', nr: 135, query: 0xffffffff } as const;

/**
 * clone() with a namespace flag is refused like unshare(). clone3() passes its flags in memory
 * the filter cannot read, so it answers ENOSYS: the C library then falls back to clone(), whose
 * flags the filter sees (container runtimes do the same). CLONE_NEWTIME is missing from the list:
 * in clone() its bit is part of the exit signal.
 */
export const CLONE = { name: 'clone', nr: 56 } as const;
export const CLONE3 = { name: 'clone3', nr: 435 } as const;
export const CLONE_NAMESPACE_FLAGS: readonly number[] = [
  0x00020000, // CLONE_NEWNS
  0x02000000, // CLONE_NEWCGROUP
  0x04000000, // CLONE_NEWUTS
  0x08000000, // CLONE_NEWIPC
  0x10000000, // CLONE_NEWUSER
  0x20000000, // CLONE_NEWPID
  0x40000000, // CLONE_NEWNET
];

/** Where the filter is written and tested. */
export const SECCOMP_ARCHITECTURES: readonly NodeJS.Architecture[] = ['x64'];

/** The Python that has Debian's libseccomp binding (not whichever python3 is first on PATH). */
const PYTHON = '/usr/bin/python3';

export const SECCOMP_UNAVAILABLE =
  "Code execution is refused: the sandbox's system-call filter could not be built";

/** The program that writes the filter's BPF to stdout; its arguments come as JSON on argv[1]. */
const BUILD_SCRIPT = `
import errno, json, sys
import seccomp
spec = json.loads(sys.argv[1])
f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
f.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
for name in spec["deny"]:
    f.add_rule(seccomp.ERRNO(errno.EPERM), name)
f.add_rule(seccomp.ERRNO(errno.EPERM), "personality", seccomp.Arg(0, seccomp.NE, spec["personalityQuery"]))
for flag in spec["cloneFlags"]:
    f.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
f.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
f.export_bpf(sys.stdout)
`;

export type SeccompFilter = { ok: true; bpf: Buffer } | { ok: false; message: string };

/**
 * Writes the filter with libseccomp (through `python`, which must have Debian's binding), or says
 * why it cannot be had. The parameters are there for the tests of the failures.
 */
export function buildSeccompFilter(
  python = PYTHON,
  arch: NodeJS.Architecture = process.arch,
): Promise<SeccompFilter> {
  if (!SECCOMP_ARCHITECTURES.includes(arch)) {
    return Promise.resolve({
      ok: false,
      message:
        `${SECCOMP_UNAVAILABLE}: it is written for x86_64 servers and this one is ${arch}, ` +
        'so code is not run here',
    });
  }
  const spec = JSON.stringify({
    deny: DENIED_SYSCALLS.map((s) => s.name),
    personalityQuery: PERSONALITY.query,
    cloneFlags: CLONE_NAMESPACE_FLAGS,
  });
  return new Promise((resolve) => {
    execFile(
      python,
      ['-I', '-c', BUILD_SCRIPT, spec],
      { encoding: 'buffer', env: { PATH: '/usr/bin:/bin' }, timeout: 30_000 },
      (err, stdout, stderr) => {
        // A BPF program is a whole number of 8-byte instructions.
        if (!err && stdout.length > 0 && stdout.length % 8 === 0) {
          resolve({ ok: true, bpf: stdout });
          return;
        }
        const why = stderr.toString('utf8').trim().split('\n').pop() || err?.message || '';
        resolve({
          ok: false,
          message:
            `${SECCOMP_UNAVAILABLE} (${why || 'libseccomp wrote no program'}). An administrator ` +
            'can install the Debian package python3-seccomp.',
        });
      },
    );
  });
}

let filter: Promise<SeccompFilter> | null = null;
let built: SeccompFilter | null = null;

/** The filter, built on first call and kept for the life of the process. */
export function seccompFilter(): Promise<SeccompFilter> {
  filter ??= buildSeccompFilter().then((result) => (built = result));
  return filter;
}

/**
 * Why the filter cannot be had, as far as is known without waiting: null while it is being built
 * (the build is started) and once it is built.
 */
export function knownSeccompProblem(): string | null {
  void seccompFilter();
  return built && !built.ok ? built.message : null;
}
