import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowReplySchema, type Workflow } from '../common/workflows';
import type {
  AgentSession,
  LogEntry,
  LogsReply,
  WsServerMessage,
  WsSessionUpdateMessage,
} from '../common/agents';
import { TEST_TEAM_ID } from '../common/agents';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/llm-server';
import {
  privatePostgresMissing,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../test/private-postgres';
import { skipReason } from '../test/requirements';
import { connectWs, type TestSocket } from '../test/teams/ws-client';
import { httpSessions, spawnRuntimeProcess, type RuntimeProcess } from '../test/teams/processes';
import { freePort } from './harness';
import { E2E_ADMIN, signInAsAdmin } from './support';

/**
 * Several processes under faults, on PostgreSQL: two web processes that only queue
 * (EMBEDDED_WORKER=false) and two workers, as `npm run serve` and `npm run worker` run them, with
 * the runtime's test team asking a scripted model server whose replies are slow enough to act
 * during a phase.
 *
 * (a) A worker is killed (SIGKILL) in the middle of a phase: the other worker runs that phase
 *     again from its start and finishes the session; no phase completed before is run again, the
 *     two runs of the killed phase never overlap, and the log's sequence numbers have no gap.
 * (b) Every database connection of the app is ended by the server (pg_terminate_backend, what a
 *     PostgreSQL restart or failover does to them): the processes reconnect, the event bus listens
 *     again and the session completes.
 * (c) A web process holding a socket stops: the client reconnects to the other web process and,
 *     reading the log from its cursor (`after`), misses no line.
 * (d) PostgreSQL itself is stopped and started again while a session and a workflow run: the
 *     processes stay up (ready says 503 while it is down), reconnect, and both finish.
 *
 * The processes use a PostgreSQL server of this file's own (test/private-postgres.ts), so that
 * (d) can restart it without disturbing the other test files on the shared server; where the
 * server's programs are absent, (a)-(c) run on TEST_DATABASE_URL and (d) skips, saying why.
 */

/** A server of our own (when PostgreSQL's programs are here), else the shared one. */
const ownServer = privatePostgresMissing === null;
let pgServer: PrivatePostgres | undefined;
let baseDbUrl = process.env.TEST_DATABASE_URL;
const dbName = `ea_faults_${crypto.randomBytes(5).toString('hex')}`;
let dataDir: string | undefined;
const procs: RuntimeProcess[] = [];
const sockets: TestSocket[] = [];
let databaseUrl: string;
let llm: ScriptedLlmServer;
let webA: { proc: RuntimeProcess; url: string };
let webB: { proc: RuntimeProcess; url: string };
let token: string;

/** The scripted model's reply time: a phase that asks it stays busy this long. */
const MODEL_DELAY_MS = 2500;
/** Every phase of the test team waits this long first. */
const PHASE_DELAY_MS = 300;
/** Small, so a dead worker's session is taken over within seconds. */
const LEASE_SECONDS = 3;
/** Generous: the machine running the suite may be loaded. */
const WAIT_MS = 60_000;
/** A process's start (loading the bundled server, or tsx compiling it) can take long on a busy machine. */
const START_MS = 150_000;
/** One fault test, waits included. */
const TEST_MS = 240_000;

const isUpdate = (m: WsServerMessage): m is WsSessionUpdateMessage => m.type === 'session-update';

function common(): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir!,
    JWT_SECRET: 'faults-test-jwt-secret-0123456789abcdef0123',
    AGENT_LEASE_SECONDS: String(LEASE_SECONDS),
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
  };
}

async function startWeb(): Promise<{ proc: RuntimeProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawnRuntimeProcess('server/main.ts', {
    ...common(),
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_WORKER: 'false',
    WEB_DIST_DIR: path.join(dataDir!, 'no-web'),
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
  });
  procs.push(proc);
  await until(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`web process exited:\n${proc.output()}`);
      return fetch(`${url}/api/health`).then(
        (res) => res.ok,
        () => false,
      );
    },
    () => `web process start:\n${proc.output()}`,
    START_MS,
  );
  return { proc, url };
}

async function startWorker(): Promise<RuntimeProcess> {
  const worker = spawnRuntimeProcess('server/worker.ts', { ...common(), LOG_LEVEL: 'info' });
  procs.push(worker);
  await until(
    () => {
      if (worker.child.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
      return worker.output().includes('EconAgents worker started');
    },
    () => `worker start:\n${worker.output()}`,
    START_MS,
  );
  return worker;
}

/** Polls `check` until it returns a truthy value (no fixed sleeps: the machine may be slow). */
async function until<T>(
  check: () => T | Promise<T>,
  what: string | (() => string),
  timeoutMs = WAIT_MS,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function leaseOwnerPid(sessionId: string): Promise<number | undefined> {
  const [row] = await query<{ lease_owner: string | null }>(
    'select lease_owner from agent_sessions where id = $1',
    [sessionId],
  );
  return row?.lease_owner ? Number(row.lease_owner.split(':')[1]) : undefined;
}

/** Every line of the session's log, read through one web process's API. */
async function allLogs(baseUrl: string, id: string, after = 0): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  let cursor = after;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/agents/sessions/${id}/logs?after=${cursor}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as LogsReply;
    entries.push(...page.entries);
    if (!page.hasMore) return entries;
    cursor = page.cursor;
  }
}

/** 1..n: the log's sequence numbers without a gap or a repeat. */
function expectContiguous(seqs: number[]): void {
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));
}

const count = (lines: string[], prefix: string) => lines.filter((l) => l.startsWith(prefix)).length;

/** The scripted model's requests for this session's phase (prompts carry the topic). */
const modelCalls = (phase: string, topic: string) =>
  llm.requests.filter((r) => r.phase === phase && r.prompt.includes(topic));

/** A socket following one session, or (without an id) every session of the team. */
async function subscribed(baseUrl: string, sessionId?: string): Promise<TestSocket> {
  const socket = await connectWs(baseUrl, token);
  sockets.push(socket);
  const from = socket.messages.length;
  socket.send({
    type: 'subscribe',
    subscriptionType: 'runtime-test-team',
    filters: sessionId ? { sessionId } : {},
  });
  await socket.next((m): m is WsServerMessage => m.type === 'subscribed', { from });
  return socket;
}

const logSeqs = (socket: TestSocket, id: string) =>
  socket.messages
    .filter(isUpdate)
    .filter((m) => m.sessionId === id && m.updateType === 'log_update')
    .map((m) => (m.data as LogEntry).seq);

/** Approves every checkpoint as it comes and waits for the session to end. */
async function approveToCompletion(baseUrl: string, id: string): Promise<AgentSession> {
  const api = httpSessions(baseUrl, token);
  for (;;) {
    const s = await api.waitFor(
      id,
      (x) => x.status === 'waiting_for_input' || x.status === 'completed' || x.status === 'error',
      WAIT_MS,
    );
    if (s.status !== 'waiting_for_input') return s;
    const res = await api.feedback(id, 'Approved');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  }
}

// Skipped only where there is no PostgreSQL (TEST_DATABASE_URL, or a local server: see
// test/local-postgres.ts): several processes need a shared PostgreSQL. .ci/run always sets
// TEST_DATABASE_URL, so CI runs this suite.
describe.skipIf(!ownServer && !baseDbUrl)(
  "several processes under faults on PostgreSQL (needs PostgreSQL's programs or TEST_DATABASE_URL)",
  () => {
    let workers: RuntimeProcess[] = [];

    beforeAll(async () => {
      if (ownServer) {
        pgServer = await startPrivatePostgres(await freePort());
        baseDbUrl = pgServer.url;
      }
      const admin = new pg.Client({ connectionString: baseDbUrl });
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      await admin.end();
      const url = new URL(baseDbUrl!);
      url.pathname = `/${dbName}`;
      databaseUrl = url.toString();

      // Made here, not at load: a skipped suite leaves nothing behind.
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-faults-'));
      llm = await startScriptedLlmServer();
      for (const phase of ['analyse', 'draft']) {
        llm.script({
          agent: TEST_TEAM_ID,
          phase,
          replies: [{ text: `A slow reply for ${phase}.`, delayMs: MODEL_DELAY_MS }],
        });
      }

      // The first web process migrates the database and creates the admin; then the others.
      webA = await startWeb();
      const [b, w1, w2] = await Promise.all([startWeb(), startWorker(), startWorker()]);
      webB = b;
      workers = [w1, w2];
      token = (await signInAsAdmin(webA.url)).tokens.accessToken;
    }, 4 * START_MS);

    afterAll(async () => {
      // A process that died on its own tells why (the killed and stopped ones are expected).
      for (const p of procs) {
        if (p.child.exitCode !== null && p.child.exitCode !== 0 && p.child.signalCode === null) {
          console.error(`process ${p.child.pid} exited with ${p.child.exitCode}:\n${p.output()}`);
        }
      }
      await Promise.all(sockets.map((s) => s.close()));
      await Promise.all(procs.map((p) => p.stop()));
      await llm?.close();
      if (pgServer) await pgServer.destroy();
      else if (baseDbUrl) {
        const admin = new pg.Client({ connectionString: baseDbUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const configuration = { useModel: true, modelInAnalyse: true, delayMs: PHASE_DELAY_MS };

    it(
      '(a) a worker killed mid-phase: the other finishes the session, no phase runs twice, no log line lost',
      async () => {
        const topic = `killed worker ${crypto.randomBytes(3).toString('hex')}`;
        const api = httpSessions(webA.url, token);
        // Followed from the other web process from the start: every line crosses processes.
        const socket = await subscribed(webB.url);
        const id = await api.start(topic, configuration);

        await api.waitFor(
          id,
          (s) => s.status === 'waiting_for_input' && s.checkpoint === 1,
          WAIT_MS,
        );
        expect((await api.feedback(id, 'Approved')).status).toBe(200);

        // The analyse phase is waiting for the model: kill the worker that runs it.
        await until(() => modelCalls('analyse', topic).length === 1, 'the analyse model call');
        const pid = await until(() => leaseOwnerPid(id), 'the lease owner');
        const victim = workers.find((w) => w.child.pid === pid);
        expect(victim, `lease held by pid ${pid}`).toBeDefined();
        await victim!.kill();
        const survivor = workers.find((w) => w !== victim)!;
        // A replacement joins in the background, as a supervisor would start one (used in (b)).
        const replacement = startWorker();

        const done = await approveToCompletion(webA.url, id);
        expect(done.status, done.error ?? '').toBe('completed');
        expect(survivor.child.exitCode).toBeNull();

        // The killed run's model call was cut off; the phase ran again once, never at the same time.
        const analyse = modelCalls('analyse', topic);
        expect(analyse.map((r) => r.outcome)).toEqual(['client-closed', 200]);
        expect(analyse[0]!.endedAt!).toBeLessThanOrEqual(analyse[1]!.startedAt);
        expect(modelCalls('draft', topic).map((r) => r.outcome)).toEqual([200]);

        const entries = await allLogs(webB.url, id);
        expectContiguous(entries.map((e) => e.seq));
        const lines = entries.map((e) => e.message);
        expect(count(lines, 'Starting phase 1/4')).toBe(1);
        expect(count(lines, 'Starting phase 2/4')).toBe(2); // killed, then run again
        expect(count(lines, 'Starting phase 3/4')).toBe(1);
        expect(count(lines, 'Starting phase 4/4')).toBe(1);
        for (const n of [1, 2, 3, 4]) expect(count(lines, `Completed phase ${n}/4`)).toBe(1);
        expect(done.results.map((r) => r.key)).toEqual(['collect', 'analyse', 'draft', 'finish']);

        // The socket on the other web process got every line, in order.
        await socket.waitFor(
          (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'process_completed',
          WAIT_MS,
        );
        expect(logSeqs(socket, id)).toEqual(entries.map((e) => e.seq));

        workers = [survivor, await replacement];
      },
      TEST_MS,
    );

    it(
      '(b) every database connection ended mid-run: the processes reconnect and the session completes',
      async () => {
        const topic = `terminated ${crypto.randomBytes(3).toString('hex')}`;
        const api = httpSessions(webB.url, token);
        const id = await api.start(topic, configuration);
        const socket = await subscribed(webA.url, id);
        await approveFirst(api, id);

        // While the analyse phase waits for the model, the server ends every connection of the app
        // (what a PostgreSQL restart does to them), and once more in the draft phase.
        await until(() => modelCalls('analyse', topic).length === 1, 'the analyse model call');
        const ended = await terminateAppConnections();
        expect(ended).toBeGreaterThanOrEqual(4); // at least the bus listener of each process
        await until(() => modelCalls('draft', topic).length === 1, 'the draft model call');
        expect(await terminateAppConnections()).toBeGreaterThan(0);

        const done = await approveToCompletion(webB.url, id);
        expect(done.status, done.error ?? '').toBe('completed');
        for (const p of [webA.proc, webB.proc, ...workers]) expect(p.child.exitCode).toBeNull();

        await expectReconnected();
        // Updates after the reconnect reach a socket on the other web process.
        await socket.waitFor(
          (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'process_completed',
          WAIT_MS,
        );

        // No phase ran twice, no line was lost.
        expect(modelCalls('analyse', topic).map((r) => r.outcome)).toEqual([200]);
        expect(modelCalls('draft', topic).map((r) => r.outcome)).toEqual([200]);
        const entries = await allLogs(webA.url, id);
        expectContiguous(entries.map((e) => e.seq));
        const lines = entries.map((e) => e.message);
        for (const n of [1, 2, 3, 4]) {
          expect(count(lines, `Starting phase ${n}/4`)).toBe(1);
          expect(count(lines, `Completed phase ${n}/4`)).toBe(1);
        }
      },
      TEST_MS,
    );

    it(
      '(c) a web process holding sockets stops: its client reconnects to the other and misses no line',
      async () => {
        const topic = `web stops ${crypto.randomBytes(3).toString('hex')}`;
        const api = httpSessions(webA.url, token);
        // The client follows the team's sessions on web A from before the start.
        const first = await subscribed(webA.url);
        const id = await api.start(topic, configuration);
        await approveFirst(api, id);

        // Lines are arriving on web A's socket; web A stops in the middle of the analyse phase.
        await until(() => modelCalls('analyse', topic).length === 1, 'the analyse model call');
        const closed = new Promise<number>((resolve) => first.socket.once('close', resolve));
        await webA.proc.stop();
        expect(await closed).toBe(1001); // going away: the client reconnects elsewhere
        const seen = new Map<number, string>();
        for (const m of first.messages.filter(isUpdate)) {
          if (m.sessionId === id && m.updateType === 'log_update') {
            const entry = m.data as LogEntry;
            seen.set(entry.seq, entry.message);
          }
        }
        const cursor = Math.max(...seen.keys());
        expect(cursor).toBeGreaterThan(0);

        // The client reconnects to web B: subscribe first, then read what it missed after its
        // cursor, so nothing falls between the two.
        const second = await subscribed(webB.url, id);
        for (const e of await allLogs(webB.url, id, cursor)) seen.set(e.seq, e.message);
        const done = await approveToCompletion(webB.url, id);
        expect(done.status, done.error ?? '').toBe('completed');
        await second.waitFor(
          (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'process_completed',
          WAIT_MS,
        );
        for (const m of second.messages.filter(isUpdate)) {
          if (m.sessionId === id && m.updateType === 'log_update') {
            const entry = m.data as LogEntry;
            seen.set(entry.seq, entry.message);
          }
        }
        // What the client put together is the whole log, line for line.
        const entries = await allLogs(webB.url, id);
        expectContiguous(entries.map((e) => e.seq));
        expect([...seen.entries()].sort((x, y) => x[0] - y[0])).toEqual(
          entries.map((e) => [e.seq, e.message]),
        );
        // Live lines came over the new socket too, not only from the cursor read.
        expect(logSeqs(second, id).length).toBeGreaterThan(0);
      },
      TEST_MS,
    );

    it.skipIf(!ownServer)(
      `(d) PostgreSQL restarted mid-run: the processes reconnect, a session and a workflow finish${skipReason(privatePostgresMissing, 'CI installs postgresql')}`,
      async () => {
        const topic = `pg restart ${crypto.randomBytes(3).toString('hex')}`;
        // (c) stopped web A: a new one takes its place.
        if (webA.proc.child.exitCode !== null || webA.proc.child.signalCode !== null) {
          webA = await startWeb();
        }
        const api = httpSessions(webA.url, token);
        const id = await api.start(topic, configuration);
        const socket = await subscribed(webB.url, id);
        // A workflow of two steps, its first step running through the restart too.
        const workflow = await startWorkflow(webA.url, [
          { team: TEST_TEAM_ID, config: { input: { topic: `${topic} step 1` } } },
          { team: TEST_TEAM_ID, config: { input: { topic: `${topic} step 2` } } },
        ]);
        const firstStep = await until(
          async () => (await readWorkflow(webA.url, workflow.id)).steps[0]!.sessionId,
          "the workflow's first session",
        );
        await approveFirst(api, id);

        // The analyse phase waits for the model: PostgreSQL stops, stays down a while, restarts.
        await until(() => modelCalls('analyse', topic).length === 1, 'the analyse model call');
        await pgServer!.stop();
        for (const web of [webA, webB]) {
          // Alive, not ready: a load balancer takes it out of rotation, no supervisor restarts it.
          expect((await fetch(`${web.url}/api/health`)).status).toBe(200);
          expect((await fetch(`${web.url}/api/ready`)).status).toBe(503);
        }
        // The fault's length, not a wait for something: long enough for every pool and the
        // queue to try and fail.
        await new Promise((r) => setTimeout(r, 3000));
        await pgServer!.start();

        const done = await approveToCompletion(webA.url, id);
        expect(done.status, done.error ?? '').toBe('completed');
        for (const p of [webA.proc, webB.proc, ...workers]) {
          expect(p.child.exitCode, p.output()).toBeNull();
        }
        await expectReconnected();
        await socket.waitFor(
          (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'process_completed',
          WAIT_MS,
        );
        // The analyse phase's result could not be written while the server was down: that phase
        // ran again once it was back (at least once, as after a killed worker), never two runs at
        // the same time; the phases after it ran once. Every phase completed once, no log gap.
        const analyse = modelCalls('analyse', topic);
        expect(analyse.length).toBeGreaterThanOrEqual(1);
        expect(analyse.length).toBeLessThanOrEqual(2);
        if (analyse.length === 2) {
          expect(analyse[0]!.endedAt!).toBeLessThanOrEqual(analyse[1]!.startedAt);
        }
        expect(modelCalls('draft', topic).map((r) => r.outcome)).toEqual([200]);
        const entries = await allLogs(webA.url, id);
        expectContiguous(entries.map((e) => e.seq));
        const lines = entries.map((e) => e.message);
        expect(count(lines, 'Starting phase 2/4')).toBe(analyse.length);
        for (const n of [1, 3, 4]) expect(count(lines, `Starting phase ${n}/4`)).toBe(1);
        for (const n of [1, 2, 3, 4]) expect(count(lines, `Completed phase ${n}/4`)).toBe(1);
        expect(done.results.map((r) => r.key)).toEqual(['collect', 'analyse', 'draft', 'finish']);

        // The workflow goes on: its first session finishes, the second step starts and finishes.
        expect((await approveToCompletion(webA.url, firstStep)).status).toBe('completed');
        // The workflow names its next session just before it inserts it: wait until it is there.
        const secondStep = await until(async () => {
          const named = (await readWorkflow(webA.url, workflow.id)).steps[1]!.sessionId;
          if (!named) return undefined;
          return (await httpSessions(webB.url, token)
            .session(named)
            .then(() => true)
            .catch(() => false))
            ? named
            : undefined;
        }, "the workflow's second session");
        expect((await approveToCompletion(webB.url, secondStep)).status).toBe('completed');
        const finished = await until(async () => {
          const w = await readWorkflow(webB.url, workflow.id);
          return w.status === 'completed' ? w : undefined;
        }, 'the workflow to complete');
        expect(finished.steps.map((s) => s.status)).toEqual(['completed', 'completed']);
      },
      TEST_MS,
    );

    /** Creates a project and a workflow in it, and starts the workflow. */
    async function startWorkflow(baseUrl: string, steps: unknown[]): Promise<Workflow> {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const project = await fetch(`${baseUrl}/api/projects`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Through a restart', researchArea: 'Macroeconomics' }),
      });
      expect(project.status).toBe(201);
      const projectId = ((await project.json()) as { data: { project: { id: string } } }).data
        .project.id;
      const created = await fetch(`${baseUrl}/api/workflows`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ projectId, name: 'Restart', steps }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { workflow } = workflowReplySchema.parse(await created.json());
      const started = await fetch(`${baseUrl}/api/workflows/${workflow.id}/start`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(started.status, await started.clone().text()).toBe(200);
      return workflow;
    }

    async function readWorkflow(baseUrl: string, id: string): Promise<Workflow> {
      const res = await fetch(`${baseUrl}/api/workflows/${id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      return workflowReplySchema.parse(await res.json()).workflow;
    }

    /** Each process listens on the bus again, and both web processes are ready. */
    async function expectReconnected(): Promise<void> {
      await until(async () => {
        const rows = await query<{ n: string }>(
          `select count(*) as n from pg_stat_activity
            where datname = $1 and application_name = 'econagents-events'`,
          [dbName],
        );
        return Number(rows[0]?.n) === 4;
      }, 'four event bus listeners');
      for (const web of [webA, webB]) {
        await until(async () => (await fetch(`${web.url}/api/ready`)).status === 200, 'ready');
      }
    }

    /** Waits for checkpoint 1 and approves it (the analyse phase then asks the model). */
    async function approveFirst(api: ReturnType<typeof httpSessions>, id: string) {
      await api.waitFor(id, (s) => s.status === 'waiting_for_input' && s.checkpoint === 1, WAIT_MS);
      expect((await api.feedback(id, 'Approved')).status).toBe(200);
    }

    /** Ends every connection to the test database but this one; returns how many. */
    async function terminateAppConnections(): Promise<number> {
      const rows = await query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid()`,
        [dbName],
      );
      return rows.filter((r) => r.ended).length;
    }
  },
);
