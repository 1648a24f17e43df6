import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import type { BwrapPlan } from './bwrap-args';
import { watchRunMemory } from './run-memory';

/** What one bwrap process did, before any interpretation. */
export interface RawRun {
  /** stdout and stderr in the order they arrived, cut at the output limit. */
  output: string;
  /** The control channel's bytes (exit status and figures), cut at its limit. */
  channel: Buffer;
  /** bwrap's own exit code (the wrapper's status), or null when killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  outputExceeded: boolean;
  /** Killed because the run's processes together passed the memory limit. */
  memoryExceeded: boolean;
  /** Set when bwrap could not be started at all (spawn error). */
  spawnError?: string;
  durationMs: number;
}

export interface SpawnLimits {
  wallTimeMs: number;
  maxOutputBytes: number;
  maxChannelBytes: number;
  /** Memory of the whole run (every process together); past it the sandbox is killed. */
  memoryBytes: number;
}

/** A host user to run bwrap as (set when the server itself runs as root). */
export interface HostUser {
  uid: number;
  gid: number;
}

/**
 * Runs bwrap with the plan and supervises it from outside: a wall-time timer, an output counter
 * and a watch on the memory of the run's processes together, which kill the whole process group (bwrap runs detached, so its group is its own; the
 * sandbox's processes die with it through --die-with-parent and the end of its PID namespace).
 * bwrap starts with an empty environment of its own too: its init process is visible inside the
 * sandbox as PID 1, and /proc/1/environ must hold nothing of the server's.
 */
export function spawnSandbox(
  bwrapPath: string,
  plan: BwrapPlan,
  limits: SpawnLimits,
  runAs?: HostUser,
): Promise<RawRun> {
  const started = performance.now();
  return new Promise<RawRun>((resolve) => {
    const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe', 'pipe'];
    for (let i = 0; i < plan.inputs.length; i++) stdio.push('pipe');
    const child = spawn(bwrapPath, plan.args, {
      stdio,
      env: { PATH: '/usr/bin:/bin' },
      detached: true,
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    });

    const chunks: string[] = [];
    let outputBytes = 0;
    let outputExceeded = false;
    let timedOut = false;
    let memoryExceeded = false;
    let killed = false;
    const channel: Buffer[] = [];
    let channelBytes = 0;
    let spawnError: string | undefined;

    const kill = () => {
      if (killed || child.pid === undefined) return;
      killed = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };

    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, limits.wallTimeMs);
    const memory =
      child.pid === undefined
        ? null
        : watchRunMemory(child.pid, limits.memoryBytes, () => {
            memoryExceeded = true;
            kill();
          });

    const onOutput = (decoder: StringDecoder) => (data: Buffer) => {
      if (outputExceeded) return;
      const room = limits.maxOutputBytes - outputBytes;
      if (data.length > room) {
        chunks.push(decoder.write(data.subarray(0, Math.max(0, room))));
        outputBytes = limits.maxOutputBytes;
        outputExceeded = true;
        kill();
        return;
      }
      outputBytes += data.length;
      chunks.push(decoder.write(data));
    };
    const outDecoder = new StringDecoder('utf8');
    const errDecoder = new StringDecoder('utf8');
    child.stdout?.on('data', onOutput(outDecoder));
    child.stderr?.on('data', onOutput(errDecoder));
    child.stdio[3]?.on('data', (data: Buffer) => {
      if (channelBytes >= limits.maxChannelBytes) return;
      const part = data.subarray(0, limits.maxChannelBytes - channelBytes);
      channel.push(part);
      channelBytes += part.length;
    });

    // What bwrap reads from descriptors 4, 5, ... (the files it copies in, the seccomp filter).
    // A write error means bwrap exited before reading; its exit status tells why.
    plan.inputs.forEach((content, i) => {
      const pipe = child.stdio[4 + i] as Writable | null;
      pipe?.on('error', () => undefined);
      pipe?.end(content);
    });

    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      memory?.stop();
      chunks.push(outDecoder.end(), errDecoder.end());
      resolve({
        output: chunks.join(''),
        channel: Buffer.concat(channel),
        code,
        signal,
        timedOut,
        outputExceeded,
        memoryExceeded,
        spawnError,
        durationMs: performance.now() - started,
      });
    };
    child.on('error', (err) => {
      spawnError = err.message;
      // A process that never started emits no 'close' of its own.
      if (child.pid === undefined) finish(null, null);
    });
    child.on('close', finish);
  });
}
