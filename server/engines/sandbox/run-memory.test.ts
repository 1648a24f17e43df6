import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxMissing, sandboxSkipReason } from '../../../test/requirements';
import { createSandbox, DEFAULT_LIMITS } from '.';
import { processTree, treeMemoryBytes, watchRunMemory } from './run-memory';

/**
 * The memory limit holds for a run as a whole: many processes each under the per-process
 * address-space limit are stopped together, and a run just under the limit is left alone.
 */

const MiB = 1024 * 1024;
// CI installs both (.ci/run): there a missing one fails the tests instead of skipping them.
const skip = sandboxMissing !== null && process.env.CI !== 'true';
const suffix = skip ? sandboxSkipReason : '';

/** Processes on the host whose command line holds `token`. */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(token)) found.push(+entry);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * A Python program whose `count` children each write `mb` MB and hold it until all of them do:
 * each reports on one pipe once its memory is written, and the parent lets them go (closing the
 * other) only when all have, so their memory is held at once, for `holdSeconds` more. Without
 * the hold, small children can write, hold and exit between two of the watch's samples.
 */
function children(count: number, mb: number, holdSeconds = 0): string {
  return [
    'import os, time',
    'ready_r, ready_w = os.pipe()',
    'go_r, go_w = os.pipe()',
    'pids = []',
    `for i in range(${count}):`,
    '    pid = os.fork()',
    '    if pid == 0:',
    '        os.close(go_w)',
    // Written, not just reserved: bytes repetition fills every page.
    `        block = b"x" * (${mb} * 1024 * 1024)`,
    '        os.write(ready_w, b"r")',
    '        os.read(go_r, 1)',
    '        os._exit(0)',
    '    pids.append(pid)',
    'held = 0',
    `while held < ${count}:`,
    '    held += len(os.read(ready_r, 16))',
    'print("ALL HOLDING", held, flush=True)',
    `time.sleep(${holdSeconds})`,
    'os.close(go_w)',
    'for pid in pids:',
    '    os.waitpid(pid, 0)',
    'print("ALL DONE")',
  ].join('\n');
}

describe('the memory of a process tree (host side)', () => {
  it('finds every process below the root and adds up their memory', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 5 & sleep 5 & wait'], { stdio: 'ignore' });
    try {
      let tree: number[] = [];
      for (let i = 0; i < 50 && tree.length < 3; i++) {
        await new Promise((r) => setTimeout(r, 20));
        tree = processTree(child.pid!);
      }
      expect(tree).toContain(child.pid);
      expect(tree).toHaveLength(3);
      expect(treeMemoryBytes(child.pid!)).toBeGreaterThan(0);
      // A process that is gone has no tree and no memory.
      expect(treeMemoryBytes(2 ** 22 + 1)).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('calls back once when the tree passes the limit', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 5'], { stdio: 'ignore' });
    try {
      const seen: number[] = [];
      const watch = watchRunMemory(child.pid!, 1024, (bytes) => seen.push(bytes), 20);
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeGreaterThan(1024);
      expect(watch.stop()).toBeGreaterThan(1024);
      const quiet: number[] = [];
      const none = watchRunMemory(child.pid!, 1024 * MiB, (bytes) => quiet.push(bytes), 20);
      await new Promise((r) => setTimeout(r, 100));
      expect(none.stop()).toBeLessThan(1024 * MiB);
      expect(quiet).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe.skipIf(skip)(`the memory limit of a whole run${suffix}`, () => {
  // Writing gigabytes takes a while on a busy machine: a wall limit that is never the reason.
  const sandbox = createSandbox({ maxConcurrent: 1, maxTimeLimitSeconds: 240 });

  it('stops four children of 800 MB each under the default limit, and says why', async () => {
    expect(4 * 800).toBeGreaterThan(DEFAULT_LIMITS.memoryMb);
    // Each child stays under the per-process address-space limit on its own.
    expect(800).toBeLessThan(DEFAULT_LIMITS.memoryMb);
    const token = `membomb_${randomBytes(4).toString('hex')}`;
    const rssBefore = process.memoryUsage().rss;
    const result = await sandbox.run({
      language: 'python',
      mainFile: `${token}.py`,
      code: children(4, 800),
      timeLimitSeconds: 240,
    });
    expect(result).toMatchObject({ ok: false, kind: 'memory-limit', exitCode: null });
    expect(result.error).toBe(
      "Execution stopped: the program's processes together used more than the memory limit of " +
        `${DEFAULT_LIMITS.memoryMb} MB`,
    );
    // Stopped when the sum passed the limit, before the four held their memory together.
    expect(result.output).not.toMatch(/ALL HOLDING/);
    expect(processesWith(token)).toEqual([]);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * MiB);
  }, 300_000);

  it('lets a run just under the limit finish', async () => {
    // Two children of 900 MB and their parent: about 1.85 GB of the 2 GB.
    expect(2 * 900 + 64).toBeLessThan(DEFAULT_LIMITS.memoryMb);
    const result = await sandbox.run({
      language: 'python',
      code: children(2, 900),
      timeLimitSeconds: 240,
    });
    expect(result).toMatchObject({ ok: true, kind: 'ok', exitCode: 0 });
    expect(result.output).toMatch(/^ALL HOLDING 2$/m);
    expect(result.output).toMatch(/^ALL DONE$/m);
  }, 300_000);

  it('counts the limit a run is given, not only the default', async () => {
    const result = await sandbox.run({
      language: 'python',
      code: children(3, 200, 5),
      limits: { memoryMb: 400 },
    });
    expect(result).toMatchObject({ ok: false, kind: 'memory-limit' });
    expect(result.error).toMatch(/memory limit of 400 MB$/);
  }, 300_000);
});
