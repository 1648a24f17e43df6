import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, listRuntimes } from './sandbox';
import { buildSeccompFilter, SECCOMP_UNAVAILABLE } from './seccomp';

/**
 * Secure by default: without its system-call filter the sandbox runs nothing, and says why.
 */

// The text the real build gives when the binding is missing (checked below); vi.mock is hoisted
// above everything else, so the text is too.
const { REFUSAL } = vi.hoisted(() => ({
  REFUSAL:
    "Code execution is refused: the sandbox's system-call filter could not be built " +
    "(ModuleNotFoundError: No module named 'seccomp'). An administrator can install the Debian " +
    'package python3-seccomp.',
}));

vi.mock('./seccomp', async (importOriginal) => {
  const real = await importOriginal<typeof import('./seccomp')>();
  const failed = { ok: false as const, message: REFUSAL };
  return {
    ...real,
    seccompFilter: () => Promise.resolve(failed),
    knownSeccompProblem: () => failed.message,
  };
});

describe('building the filter', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'seccomp-build-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in for python3: a shell script. */
  function fakePython(name: string, script: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${script}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  it('names the missing binding and the package to install', async () => {
    const python = fakePython(
      'no-binding',
      `echo "Traceback ..." >&2; echo "ModuleNotFoundError: No module named 'seccomp'" >&2; exit 1`,
    );
    expect(await buildSeccompFilter(python, 'x64')).toEqual({ ok: false, message: REFUSAL });
  });

  it('refuses a program that is not whole BPF instructions, or none at all', async () => {
    const cases: Array<[string, string]> = [
      ['short', 'printf abc'],
      ['empty', 'exit 0'],
    ];
    for (const [name, script] of cases) {
      const result = await buildSeccompFilter(fakePython(name, script), 'x64');
      expect(result, name).toMatchObject({ ok: false });
      if (!result.ok) expect(result.message).toMatch(/libseccomp wrote no program/);
    }
  });

  it('says when there is no python3 at all', async () => {
    const result = await buildSeccompFilter(path.join(dir, 'absent'), 'x64');
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toMatch(/ENOENT.*python3-seccomp/);
  });

  it('refuses other architectures, whose system-call numbers it was not written for', async () => {
    expect(await buildSeccompFilter('/usr/bin/python3', 'arm64')).toEqual({
      ok: false,
      message: `${SECCOMP_UNAVAILABLE}: it is written for x86_64 servers and this one is arm64, so code is not run here`,
    });
  });
});

describe('a sandbox without its filter', () => {
  it('runs nothing and says why, in the run, its status and the runtime list', async () => {
    const sandbox = createSandbox();
    const result = await sandbox.run({ language: 'python', code: 'print(1)' });
    const bwrap = existsSync('/usr/bin/bwrap') || existsSync('/usr/local/bin/bwrap');
    if (bwrap) {
      expect(result).toMatchObject({ ok: false, kind: 'unavailable', output: '', error: REFUSAL });
      expect(await sandbox.status()).toMatchObject({ available: false, message: REFUSAL });
      expect(listRuntimes().sandbox).toEqual({ available: false, message: REFUSAL });
    } else {
      // Without bubblewrap that is the first reason given.
      expect(result).toMatchObject({ ok: false, kind: 'unavailable' });
      expect(result.error).toMatch(/bubblewrap/);
    }
  });
});
