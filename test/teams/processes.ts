import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { AgentSession } from '../../common/agents';
import { nodeArgsFor } from '../../e2e/server-bundle.helpers';

/**
 * Real server and worker processes for the runtime's process tests. They run as `node <entry>`
 * (the browser-test run's server bundle, else `node --import tsx <entry>`: see
 * e2e/server-bundle.helpers.ts) so that the pid is the server itself (the tsx CLI would fork a
 * child) and SIGKILL really kills it.
 */
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export interface RuntimeProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (clean shutdown), then wait for the exit. */
  stop(): Promise<void>;
}

/** The product's entry points, each with the runtime's test team added (test/teams/). */
const WITH_TEST_TEAM = {
  'server/main.ts': 'test/teams/serve-with-test-team.ts',
  'server/worker.ts': 'test/teams/worker-with-test-team.ts',
} as const;

export function spawnRuntimeProcess(
  entry: 'server/main.ts' | 'server/worker.ts',
  env: Record<string, string>,
): RuntimeProcess {
  const child = spawn(process.execPath, nodeArgsFor(WITH_TEST_TEAM[entry]), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function waitHealthy(baseUrl: string, proc: RuntimeProcess): Promise<void> {
  // A start on a busy machine (the whole browser suite beside it) can take a minute; this returns as soon as it answers.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) {
      throw new Error(`server exited with ${proc.child.exitCode}:\n${proc.output()}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy in 150 s:\n${proc.output()}`);
}

/** The generic session endpoints over real HTTP. */
export function httpSessions(baseUrl: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  async function call(method: string, url: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: body === undefined ? { authorization: headers.authorization } : headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }
  return {
    call,
    async start(topic: string, configuration: Record<string, unknown> = {}): Promise<string> {
      const r = await call('POST', '/api/agents/sessions', {
        teamId: 'runtime-test',
        input: { topic },
        configuration,
      });
      if (r.status !== 201) throw new Error(`start: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.sessionId as string;
    },
    async session(id: string): Promise<AgentSession> {
      const r = await call('GET', `/api/agents/sessions/${id}`);
      if (r.status !== 200) throw new Error(`status: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.session as AgentSession;
    },
    async logs(id: string): Promise<string[]> {
      return (await call('GET', `/api/agents/sessions/${id}/logs`)).json.logs as string[];
    },
    feedback(id: string, feedback: string) {
      return call('POST', `/api/agents/sessions/${id}/feedback`, { feedback });
    },
    async waitFor(
      id: string,
      done: (s: AgentSession) => boolean,
      timeoutMs = 30_000,
    ): Promise<AgentSession> {
      const deadline = Date.now() + timeoutMs;
      let last: AgentSession | undefined;
      while (Date.now() < deadline) {
        last = await this.session(id);
        if (done(last)) return last;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(
        `session did not reach the state in ${timeoutMs} ms; last: ${JSON.stringify({
          status: last?.status,
          phase: last?.phase,
          error: last?.error,
        })}`,
      );
    },
  };
}
