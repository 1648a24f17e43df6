import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsServerMessage, WsSessionUpdateMessage } from '../common/agents';
import { connectWs } from '../test/teams/ws-client';
import {
  httpSessions,
  spawnRuntimeProcess,
  waitHealthy,
  type RuntimeProcess,
} from '../test/teams/processes';
import { freePort } from './harness';
import { E2E_ADMIN, signInAsAdmin } from './support';

/**
 * Scale-out (ARCHITECTURE §3) with real processes on PostgreSQL: a web process that only queues
 * (EMBEDDED_WORKER=false) and `server/worker.ts` workers. A session started through the web
 * process is run by a worker, and its updates reach a WebSocket on the web process through
 * LISTEN/NOTIFY. When the worker running a session is killed, another one resumes it.
 */

const baseDbUrl = process.env.TEST_DATABASE_URL;
const dbName = `ea_scaleout_${crypto.randomBytes(5).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-scaleout-'));
const procs: RuntimeProcess[] = [];
let databaseUrl: string;
let baseUrl: string;

const isUpdate = (m: WsServerMessage): m is WsSessionUpdateMessage => m.type === 'session-update';

function common(): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: 'scale-out-test-jwt-secret-0123456789abcdef',
    AGENT_LEASE_SECONDS: '3',
  };
}

async function startWorker(): Promise<RuntimeProcess> {
  const worker = spawnRuntimeProcess('server/worker.ts', { ...common(), LOG_LEVEL: 'info' });
  procs.push(worker);
  const deadline = Date.now() + 60_000;
  while (!worker.output().includes('EconAgents worker started')) {
    if (worker.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`worker did not start:\n${worker.output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return worker;
}

async function leaseOwnerPid(sessionId: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ lease_owner: string | null }>(
      'select lease_owner from agent_sessions where id = $1',
      [sessionId],
    );
    const owner = rows[0]?.lease_owner;
    return owner ? Number(owner.split(':')[1]) : undefined;
  } finally {
    await client.end();
  }
}

// Skipped only where there is no PostgreSQL (TEST_DATABASE_URL, or a local server: see
// test/local-postgres.ts): the scale-out mode needs a shared PostgreSQL (PGlite serves one
// process). .ci/run always sets TEST_DATABASE_URL, so CI runs this suite.
describe.skipIf(!baseDbUrl)(
  'agent runtime scaled out on PostgreSQL (needs TEST_DATABASE_URL)',
  () => {
    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: baseDbUrl });
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      await admin.end();
      const url = new URL(baseDbUrl!);
      url.pathname = `/${dbName}`;
      databaseUrl = url.toString();
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      const web = spawnRuntimeProcess('server/main.ts', {
        ...common(),
        PORT: String(port),
        HOST: '127.0.0.1',
        EMBEDDED_WORKER: 'false',
        WEB_DIST_DIR: path.join(dataDir, 'no-web'),
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
      });
      procs.push(web);
      await waitHealthy(baseUrl, web);
    });

    afterAll(async () => {
      await Promise.all(procs.map((p) => p.stop()));
      if (baseDbUrl) {
        const admin = new pg.Client({ connectionString: baseDbUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('the web process only queues; a worker runs the session; the socket on the web process gets its updates', async () => {
      const { tokens } = await signInAsAdmin(baseUrl);
      const api = httpSessions(baseUrl, tokens.accessToken);
      const socket = await connectWs(baseUrl, tokens.accessToken);
      socket.send({ type: 'subscribe', subscriptionType: 'runtime-test-team' });
      await socket.waitFor((m) => m.type === 'subscribed');

      const id = await api.start('scaled out');
      // No worker yet: the session waits in the queue, nothing runs in the web process.
      await new Promise((r) => setTimeout(r, 2500));
      const queued = await api.session(id);
      expect(queued).toMatchObject({ status: 'processing', phase: 1, results: [] });
      expect(await api.logs(id)).toEqual([
        'Started Runtime Test Team session: 4 phases, 2 checkpoints for your review',
      ]);

      await startWorker();
      const checkpoint = await socket.waitFor(
        (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'checkpoint_reached',
        30_000,
      );
      expect(checkpoint).toMatchObject({
        status: 'waiting_for_input',
        data: { checkpointData: { items: ['scaled', 'out'] } },
      });
      await api.feedback(id, 'Approved');
      await socket.waitFor(
        (m) =>
          isUpdate(m) &&
          m.sessionId === id &&
          m.updateType === 'checkpoint_reached' &&
          m.checkpoint === 2,
        30_000,
      );
      await api.feedback(id, 'Approved');
      await socket.waitFor(
        (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'process_completed',
        30_000,
      );
      // Every log line reached the socket, in order.
      const seqs = socket.messages
        .filter(isUpdate)
        .filter((m) => m.sessionId === id && m.updateType === 'log_update')
        .map((m) => (m.data as { seq: number }).seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(seqs.length).toBe((await api.logs(id)).length);
      await socket.close();
    });

    it('when the worker running a session is killed, another worker resumes it', async () => {
      await startWorker(); // a second worker besides the first test's
      const { tokens } = await signInAsAdmin(baseUrl);
      const api = httpSessions(baseUrl, tokens.accessToken);
      const id = await api.start('worker dies', { delayMs: 4000 });
      await api.waitFor(id, (s) => s.status === 'processing', 10_000);
      let pid: number | undefined;
      const deadline = Date.now() + 15_000;
      while (!pid && Date.now() < deadline) {
        pid = await leaseOwnerPid(id);
        if (!pid) await new Promise((r) => setTimeout(r, 100));
      }
      const running = procs.find((p) => p.child.pid === pid);
      expect(running, `lease held by pid ${pid}`).toBeDefined();
      await running!.kill();

      const resumed = await api.waitFor(
        id,
        (s) => s.status === 'waiting_for_input' && s.checkpoint === 1,
        30_000,
      );
      expect(resumed.results).toHaveLength(1);
      const logs = await api.logs(id);
      expect(logs.filter((l) => l === 'Starting phase 1/4: Collect')).toHaveLength(2);
      expect(logs.filter((l) => l.startsWith('Completed phase 1/4'))).toHaveLength(1);
      const other = procs.find(
        (p) => p !== running && p.output().includes('EconAgents worker started'),
      );
      expect(other?.child.exitCode).toBeNull();
    });
  },
);
