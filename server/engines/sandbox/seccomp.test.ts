import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '.';
import { buildBwrapArgs, WORK_DIR } from './bwrap-args';
import { sandboxEtcDir } from './etc-dir';
import { DEFAULT_LIMITS } from './limits';
import type { ExecutionResult } from './outcome';
import {
  CLONE,
  CLONE3,
  CLONE_NAMESPACE_FLAGS,
  DENIED_SYSCALLS,
  PERSONALITY,
  seccompFilter,
} from './seccomp';
import { spawnSandbox } from './spawn';

/**
 * The system-call filter: every denied call fails with EPERM inside the sandbox, and the calls a
 * probe of the sandbox found working (io_uring, keys, attaching to the sandbox's init) do work
 * without the filter, so these tests would fail if the filter were lost.
 *
 * In CI every prerequisite is installed (.ci/run), so a missing one fails there instead of
 * skipping.
 */

const PYTHON = '/usr/bin/python3';
const hasBwrap = existsSync('/usr/bin/bwrap');
const hasPython = existsSync(PYTHON);
const missing = !hasBwrap
  ? 'bubblewrap is not installed'
  : !hasPython
    ? '/usr/bin/python3 is absent'
    : process.arch !== 'x64'
      ? 'the filter is written for x86_64'
      : null;
const skip = missing !== null && process.env.CI !== 'true';
const suffix = skip ? ` (skipped: ${missing}; CI installs bubblewrap and python3-seccomp)` : '';

/** [label, x86_64 number, arguments]; a string argument "buf:N" is a zeroed buffer of N bytes. */
type Call = [string, number, Array<number | string>];

/**
 * Calls each system call by number through ctypes and prints `label errno` (0 on success). A
 * successful attach to init is undone at once so the run is not stalled by it.
 */
const PROBE = `import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
keep = []
def arg(a):
    if isinstance(a, str):
        kind, _, value = a.partition(":")
        buf = ctypes.create_string_buffer(int(value)) if kind == "buf" else ctypes.create_string_buffer(value.encode())
        keep.append(buf)
        return buf
    return ctypes.c_long(a) if a < 0 else ctypes.c_ulong(a)
for label, nr, args in json.load(open("calls.json")):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[arg(a) for a in args])
    print("CALL", label, 0 if r >= 0 else ctypes.get_errno(), flush=True)
    if label == "ptrace-attach-init" and r == 0:
        os.waitpid(1, 0x40000000)
        libc.syscall(ctypes.c_long(101), ctypes.c_ulong(17), ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0))
print("DONE")
`;

const EPERM = 1;
const ENOSYS = 38;
const PTRACE_ATTACH = 16;
const KEY_SPEC_PROCESS_KEYRING = -2;
const KEYCTL_GET_KEYRING_ID = 0;
const ADDR_NO_RANDOMIZE = 0x0040000;
const SIGCHLD = 17;

/** Calls that work in a sandbox without the filter: the probe's findings, and then some. */
const WORKING_WITHOUT_FILTER: Call[] = [
  ['ptrace-attach-init', 101, [PTRACE_ATTACH, 1, 0, 0]],
  // io_uring_setup(1 entry, zeroed io_uring_params of 120 bytes) returns a ring.
  ['io_uring_setup-ring', 425, [1, 'buf:120']],
  ['keyctl-get-keyring', 250, [KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1]],
  ['add_key-user', 248, ['str:user', 'str:k', 'str:v', 1, KEY_SPEC_PROCESS_KEYRING]],
  ['unshare-nothing', 272, [0]],
  ['personality-no-aslr', PERSONALITY.nr, [ADDR_NO_RANDOMIZE]],
];

/** Every denied call with zero arguments: the filter refuses it whatever they are. */
const DENIED_CALLS: Call[] = DENIED_SYSCALLS.map((s) => [s.name, s.nr, [0, 0, 0, 0, 0, 0]]);

/** The probe's `label errno` lines. */
function probeResults(output: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const m of output.matchAll(/^CALL (\S+) (\d+)$/gm)) seen.set(m[1]!, Number(m[2]));
  return seen;
}

describe.skipIf(skip)(`seccomp filter${suffix}`, () => {
  it('lists each call with its x86_64 number as libseccomp knows it', () => {
    const names = [...DENIED_SYSCALLS, PERSONALITY, CLONE, CLONE3].map((s) => s.name);
    const resolved = JSON.parse(
      execFileSync(
        PYTHON,
        [
          '-I',
          '-c',
          'import json, sys, seccomp\n' +
            'print(json.dumps({n: seccomp.resolve_syscall(seccomp.Arch.X86_64, n) for n in json.loads(sys.argv[1])}))',
          JSON.stringify(names),
        ],
        { encoding: 'utf8' },
      ),
    ) as Record<string, number>;
    for (const s of [...DENIED_SYSCALLS, PERSONALITY, CLONE, CLONE3]) {
      expect(resolved[s.name], s.name).toBe(s.nr);
    }
  });

  it('is built: a BPF program of whole 8-byte instructions', async () => {
    const filter = await seccompFilter();
    expect(filter).toMatchObject({ ok: true });
    if (filter.ok) {
      expect(filter.bpf.length % 8).toBe(0);
      expect(filter.bpf.length).toBeGreaterThan(8 * DENIED_SYSCALLS.length);
    }
  });

  describe('inside the sandbox', () => {
    const sandbox = createSandbox({ maxConcurrent: 2 });
    let filtered: ExecutionResult;
    let unfiltered: Map<string, number>;
    let filteredCalls: Map<string, number>;

    beforeAll(async () => {
      const calls: Call[] = [
        ...DENIED_CALLS,
        ...WORKING_WITHOUT_FILTER,
        ['personality-query', PERSONALITY.nr, [PERSONALITY.query]],
        ...CLONE_NAMESPACE_FLAGS.map((flag): Call => [
          `clone-${flag.toString(16)}`,
          CLONE.nr,
          [flag | SIGCHLD, 0, 0, 0, 0],
        ]),
        ['clone3', CLONE3.nr, ['buf:88', 88]],
      ];
      filtered = await sandbox.run({
        language: 'python',
        code: PROBE,
        files: { 'calls.json': JSON.stringify(calls) },
        timeLimitSeconds: 30,
      });
      filteredCalls = probeResults(filtered.output);

      // The same sandbox without the filter, for the calls that should then work.
      const limits = { ...DEFAULT_LIMITS, timeLimitSeconds: 30, cpuSeconds: 30 };
      const plan = buildBwrapArgs({
        limits,
        etcDir: await sandboxEtcDir(process.getuid?.() === 0),
        files: [
          { dest: `${WORK_DIR}/probe.py`, content: PROBE },
          { dest: `${WORK_DIR}/calls.json`, content: JSON.stringify(WORKING_WITHOUT_FILTER) },
        ],
        env: { PATH: '/usr/bin:/bin', HOME: WORK_DIR, LANG: 'C.UTF-8' },
        command: [PYTHON, '-B', 'probe.py'],
        seccomp: null,
      });
      const raw = await spawnSandbox(
        '/usr/bin/bwrap',
        plan,
        {
          wallTimeMs: 30_000,
          maxOutputBytes: 65_536,
          maxChannelBytes: 4096,
          memoryBytes: limits.memoryMb * 1024 * 1024,
        },
        process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined,
      );
      unfiltered = probeResults(raw.output);
    }, 120_000);

    it('the probe ran to its end, with and without the filter', () => {
      expect(filtered).toMatchObject({ ok: true, kind: 'ok' });
      expect(filtered.output).toMatch(/^DONE$/m);
      expect(unfiltered.size).toBe(WORKING_WITHOUT_FILTER.length);
    });

    it.each(DENIED_SYSCALLS.map((s) => s.name))('%s fails with EPERM', (name) => {
      expect(filteredCalls.get(name)).toBe(EPERM);
    });

    it('the calls a probe found working fail with EPERM, and work without the filter', () => {
      for (const [label] of WORKING_WITHOUT_FILTER) {
        expect(filteredCalls.get(label), label).toBe(EPERM);
        expect(unfiltered.get(label), `${label} without the filter`).toBe(0);
      }
    });

    it('personality: a query is answered, a change is refused', () => {
      expect(filteredCalls.get('personality-query')).toBe(0);
      expect(filteredCalls.get('personality-no-aslr')).toBe(EPERM);
    });

    it('clone with a namespace flag fails with EPERM; clone3 answers ENOSYS so the C library uses clone', () => {
      for (const flag of CLONE_NAMESPACE_FLAGS) {
        expect(filteredCalls.get(`clone-${flag.toString(16)}`), flag.toString(16)).toBe(EPERM);
      }
      expect(filteredCalls.get('clone3')).toBe(ENOSYS);
    });

    it('a call through the x32 system-call table, which the filter does not read, kills the process', async () => {
      const result = await sandbox.run({
        language: 'python',
        code: [
          'import ctypes',
          'libc = ctypes.CDLL(None, use_errno=True)',
          'print("BEFORE", flush=True)',
          // x32's ptrace: the x32 bit (0x40000000) on its number, 521.
          'libc.syscall(ctypes.c_long(0x40000000 | 521), ctypes.c_long(16), ctypes.c_long(1), None, None)',
          'print("SURVIVED")',
        ].join('\n'),
      });
      expect(result.output).toMatch(/^BEFORE$/m);
      expect(result.output).not.toMatch(/SURVIVED/);
      expect(result).toMatchObject({ ok: false, kind: 'signal' });
      expect(result.error).toBe('The program was killed by SIGSYS');
    });

    it("PTRACE_ATTACH on the sandbox's init fails at once instead of stalling the run", async () => {
      const started = Date.now();
      const result = await sandbox.run({
        language: 'python',
        code: [
          'import ctypes, os, time',
          'libc = ctypes.CDLL(None, use_errno=True)',
          `r = libc.ptrace(ctypes.c_long(${PTRACE_ATTACH}), ctypes.c_long(1), None, None)`,
          'print("ATTACH", r, os.strerror(ctypes.get_errno()))',
          'if r == 0:',
          '    time.sleep(60)',
        ].join('\n'),
        timeLimitSeconds: 20,
      });
      expect(result).toMatchObject({ ok: true, kind: 'ok' });
      expect(result.output).toMatch(/^ATTACH -1 Operation not permitted$/m);
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});
