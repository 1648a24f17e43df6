import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WsSessionUpdateMessage } from '../common/agents';
import { connectWs } from '../test/teams/ws-client';
import {
  httpSessions,
  spawnRuntimeProcess,
  waitHealthy,
  type RuntimeProcess,
} from '../test/teams/processes';
import { freePort, migratedPgdata } from './harness';
import { E2E_ADMIN, signInAsAdmin } from './support';

/**
 * A session survives the death of its process (ARCHITECTURE §6 Restart): the embedded server
 * (PGlite, worker inside) is SIGKILLed, started again on the same data directory, and the
 * session goes on: a waiting one takes feedback, a running one resumes from its last
 * persisted phase.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-runtime-restart-'));
let server: RuntimeProcess | undefined;
let port: number;
let baseUrl: string;

async function startServer(): Promise<RuntimeProcess> {
  const proc = spawnRuntimeProcess('server/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    // Request logs on, to check that the WebSocket token never appears in them.
    LOG_LEVEL: 'info',
  });
  await waitHealthy(baseUrl, proc);
  return proc;
}

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('agent runtime across a killed process', () => {
  it('a session waiting at a checkpoint survives SIGKILL and completes with feedback', async () => {
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // The first start on a copy of the migrated, empty database, as every browser test's server
    // (harness.ts): creating it in WebAssembly costs seconds of CPU, and a first start on an
    // empty data directory is foundation's test. What this file tests is the restarts.
    fs.cpSync(await migratedPgdata(), path.join(dataDir, 'pgdata'), { recursive: true });
    server = await startServer();
    const { tokens } = await signInAsAdmin(baseUrl);
    const api = httpSessions(baseUrl, tokens.accessToken);

    // The token in /ws?token= must not be written to the request log.
    const socket = await connectWs(baseUrl, tokens.accessToken);
    socket.send({ type: 'subscribe', subscriptionType: 'runtime-test-team' });
    await socket.waitFor((m) => m.type === 'subscribed');

    const id = await api.start('survives a crash');
    const waiting = await api.waitFor(
      id,
      (s) => s.status === 'waiting_for_input' && s.checkpoint === 1,
    );
    await socket.waitFor(
      (m) =>
        m.type === 'session-update' &&
        (m as WsSessionUpdateMessage).updateType === 'checkpoint_reached',
    );
    await socket.close();
    expect(server.output()).toContain('/ws?token=%5Bredacted%5D');
    expect(server.output()).not.toContain(tokens.accessToken);

    await server.kill();
    expect(server.child.signalCode).toBe('SIGKILL');
    server = await startServer();

    const after = await api.session(id);
    expect(after).toMatchObject({
      status: 'waiting_for_input',
      phase: 1,
      checkpoint: 1,
      checkpointData: waiting.checkpointData,
    });
    expect((await api.feedback(id, 'Approved')).status).toBe(200);
    await api.waitFor(id, (s) => s.status === 'waiting_for_input' && s.checkpoint === 2);
    expect((await api.feedback(id, 'Approved')).status).toBe(200);
    const done = await api.waitFor(id, (s) => s.status === 'completed');
    expect(done.results.map((r) => r.key)).toEqual(['collect', 'analyse', 'draft', 'finish']);
    const logs = await api.logs(id);
    expect(logs.filter((l) => l.startsWith('Completed phase 1/4'))).toHaveLength(1);
    expect(logs.at(-1)).toBe('Session completed: all 4 phases done');
  });

  it('a session killed mid-phase resumes at start from its last persisted phase', async () => {
    const { tokens } = await signInAsAdmin(baseUrl);
    const api = httpSessions(baseUrl, tokens.accessToken);
    const id = await api.start('killed while running', { delayMs: 2500 });
    await api.waitFor(id, (s) => s.status === 'waiting_for_input' && s.checkpoint === 1);
    expect((await api.feedback(id, 'Approved')).status).toBe(200);
    // Phase 2 is running (it takes 2.5 s) when the process dies.
    await api.waitFor(id, (s) => s.status === 'processing' && s.phase === 2, 10_000);
    await new Promise((r) => setTimeout(r, 800));
    expect((await api.logs(id)).at(-1)).toBe('Starting phase 2/4: Analyse');
    await server!.kill();
    server = await startServer();

    // Nobody touches it: the restarted process resumes it from phase 2.
    const resumed = await api.waitFor(
      id,
      (s) => s.status === 'waiting_for_input' && s.checkpoint === 2,
      30_000,
    );
    expect(resumed.results.map((r) => r.key)).toEqual(['collect', 'analyse', 'draft']);
    const logs = await api.logs(id);
    expect(logs.filter((l) => l === 'Starting phase 2/4: Analyse')).toHaveLength(2);
    expect(logs.filter((l) => l.startsWith('Completed phase 1/4'))).toHaveLength(1);
    expect(logs.filter((l) => l.startsWith('Completed phase 2/4'))).toHaveLength(1);
  });
});
