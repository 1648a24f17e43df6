/**
 * API reads against their anchor: `GET /api/projects` (a researcher's list of 20 projects, with
 * dataset links, a favorite and a membership) on a real server process, against a bare Fastify
 * hello world in a process of its own, at the same number of connections, in alternating rounds
 * of the same run, on PGlite and on PostgreSQL. Prints each round, then ours/hello as
 * min/median/max over the rounds, the p99 latency of ours, errors (non-2xx replies, timeouts,
 * failed connections), the server's resident memory at the start and the end, and the machine's
 * load (uptime) before and after; also each process's CPU time per request (from /proc), which a
 * loaded machine distorts far less than req/s: hello's/ours of it is the ratio a quiet machine
 * would show when the server's CPU is what limits it. Run by hand; the numbers go in
 * docs/performance.md.
 *
 *   npx tsx bench/api-read/api-read.ts
 *   npx tsx bench/api-read/api-read.ts --rounds 7 --seconds 5 --connections 20 --db pglite
 *   TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/postgres npx tsx bench/api-read/api-read.ts
 *   npx tsx bench/api-read/api-read.ts --db pglite --profile /tmp/prof   # server's --cpu-prof
 *
 * PostgreSQL: a fresh database is created on TEST_DATABASE_URL's server (default
 * postgres://root@127.0.0.1:5432/postgres) and dropped at the end. `--url` adds another path to
 * measure the same way (e.g. `--url /api/documents`); `:project` in it stands for the project
 * shared with the researcher (e.g. `--url '/api/agents/sessions?projectId=:project'`).
 *
 * Besides the projects the researcher has 20 agent sessions (finished, waiting, failed; some of
 * their projects, 3 log lines each) and 41 notifications (two per session, half of them read,
 * and the approval notice), for the notification, session and dashboard reads. No team runs:
 * they are written into the database with the server stopped (PGlite is one process's), and
 * the server is started again on it.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../../server/db/connect';
import { agentSessionLogs, agentSessions, notifications } from '../../server/db/schema';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    projects: { type: 'string', default: '20' },
    db: { type: 'string', default: 'both' },
    url: { type: 'string', multiple: true, default: [] },
    // A directory: the server runs with `node --cpu-prof` and writes its profile there.
    profile: { type: 'string' },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const PROJECTS = Number(args.projects);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const ADMIN = { email: 'bench-admin@example.org', password: 'bench-admin-password-1' };
const PATH_ARGS = ['/api/projects', ...(args.url ?? [])];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function rssMb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = Number(
  (() => {
    try {
      return execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
    } catch {
      return '100';
    }
  })(),
);

const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

async function waitUntil(ok: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function startHello(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/api-read/hello-server.ts', String(port)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}/`;
  await waitUntil(async () => (await fetch(url)).ok, 'hello world');
  return { url, child };
}

async function startServer(databaseUrl: string | undefined, dataDir: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const profile = args.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      RATE_LIMIT_MAX: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitUntil(async () => (await fetch(`${base}/api/ready`)).ok, 'the server');
  } catch (err) {
    process.stderr.write(output);
    throw err;
  }
  return {
    base,
    child,
    async close() {
      await stop(child);
    },
  };
}

async function call(
  base: string,
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
): Promise<{ data: Record<string, unknown> }> {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: Record<string, unknown> };
}

interface Seeded {
  token: string;
  userId: string;
  sharedProjectId: string;
  projectIds: string[];
}

/** A researcher with PROJECTS projects: a few with a dataset, a favorite, one shared with them. */
async function seed(base: string): Promise<Seeded> {
  const signIn = async (email: string, password: string) =>
    (
      (await call(base, 'POST', '/api/auth/login', null, { email, password })).data.tokens as {
        accessToken: string;
      }
    ).accessToken;
  const admin = await signIn(ADMIN.email, ADMIN.password);
  const email = 'bench-researcher@example.org';
  const password = 'bench-researcher-password-1';
  await call(base, 'POST', '/api/auth/register', null, { email, password, displayName: 'Bench' });
  const users = (await call(base, 'GET', '/api/auth/users?limit=100', admin)).data.users as Array<{
    id: string;
    email: string;
  }>;
  const id = users.find((u) => u.email === email)!.id;
  await call(base, 'PUT', `/api/auth/users/${id}/status`, admin, { status: 'approved' });
  const token = await signIn(email, password);
  const areas = ['Labor', 'Macro', 'Trade', 'Health'];
  const projectIds: string[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const p = (
      await call(base, 'POST', '/api/projects', i === 0 ? admin : token, {
        title: `Project ${i}`,
        description: 'A project of the API read benchmark',
        researchArea: areas[i % areas.length],
      })
    ).data.project as { id: string };
    projectIds.push(p.id);
    if (i === 0) {
      await call(base, 'POST', `/api/projects/${p.id}/members`, admin, {
        email,
        role: 'collaborator',
      });
    }
    if (i % 3 === 0) await call(base, 'PUT', `/api/projects/${p.id}/favorite`, token);
  }
  const list = await call(base, 'GET', '/api/projects', token);
  if (list.data.total !== PROJECTS) throw new Error(`seeded ${String(list.data.total)} projects`);
  return { token, userId: id, sharedProjectId: projectIds[0]!, projectIds };
}

const SESSIONS = 20;

/** The researcher's agent sessions, their log lines and notifications, written directly. */
async function seedSessions(
  databaseUrl: string | undefined,
  dataDir: string,
  s: Seeded,
): Promise<void> {
  const handle = await openDatabase({ databaseUrl, dataDir });
  try {
    const teams = ['literature', 'data', 'model', 'code', 'ideation'] as const;
    const statuses = ['completed', 'waiting_for_input', 'error', 'completed'] as const;
    const now = Date.now();
    for (let i = 0; i < SESSIONS; i++) {
      const at = (seconds: number) => new Date(now - (SESSIONS - i) * 60_000 + seconds * 1000);
      const status = statuses[i % statuses.length]!;
      const [row] = await handle.db
        .insert(agentSessions)
        .values({
          teamId: teams[i % teams.length]!,
          ownerId: s.userId,
          projectId: i % 2 === 0 ? s.projectIds[i % s.projectIds.length] : null,
          input: { topic: `Benchmark topic ${i}` },
          plan: ['first', 'second', 'third'],
          status,
          phase: 2,
          results: [
            {
              phase: 1,
              key: 'first',
              name: 'First',
              result: { n: i },
              completedAt: at(10).toISOString(),
            },
          ],
          feedback: [
            {
              phase: 1,
              checkpoint: 1,
              feedback: 'Approved',
              approved: true,
              submittedAt: at(20).toISOString(),
            },
          ],
          error: status === 'error' ? 'The model did not answer' : null,
          logSeq: 3,
          createdAt: at(0),
          updatedAt: at(30),
          startedAt: at(0),
          completedAt: status === 'completed' ? at(30) : null,
        })
        .returning({ id: agentSessions.id });
      const sessionId = row!.id;
      await handle.db.insert(agentSessionLogs).values(
        [1, 2, 3].map((seq) => ({
          sessionId,
          seq,
          message: `Benchmark log line ${seq}`,
          createdAt: at(seq * 10),
        })),
      );
      await handle.db.insert(notifications).values(
        [1, 2].map((n) => ({
          userId: s.userId,
          kind: n === 1 ? ('session_waiting' as const) : ('session_completed' as const),
          title: n === 1 ? 'Waiting for you' : 'Finished',
          message: `Session ${i}, notice ${n}`,
          link: `/app/${teams[i % teams.length]!}-team?session=${sessionId}`,
          sessionId,
          dedupeKey: `bench:${sessionId}:${n}`,
          readAt: (i + n) % 2 === 0 ? at(40) : null,
          createdAt: at(n * 15),
        })),
      );
    }
  } finally {
    await handle.close();
  }
}

interface Round {
  rps: number;
  p99: number;
  errors: number;
  /** The serving process's CPU time per request, ms: what load on the machine distorts least. */
  cpu: number;
}

async function measure(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid: number,
): Promise<Round> {
  const cpuBefore = cpuMs(pid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const requests = r.requests.total;
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    cpu: requests > 0 ? (cpuMs(pid) - cpuBefore) / requests : 0,
  };
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (v: number, d = 0) => v.toFixed(d);

async function runDatabase(
  kind: 'pglite' | 'postgres',
  hello: string,
  helloPid: number,
): Promise<void> {
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    dbName = `ea_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-api-read-'));
  let server = await startServer(databaseUrl, dataDir);
  try {
    const seeded = await seed(server.base);
    await server.close();
    await seedSessions(databaseUrl, dataDir, seeded);
    server = await startServer(databaseUrl, dataDir);
    const check = await call(server.base, 'GET', '/api/notifications', seeded.token);
    if (check.data.total !== SESSIONS * 2 + 1) {
      throw new Error(`seeded ${String(check.data.total)} notifications`);
    }
    const auth = { authorization: `Bearer ${seeded.token}` };
    const PATHS = PATH_ARGS.map((p) => p.replace(':project', seeded.sharedProjectId));
    // Warm both up (JIT, pools, prepared statements).
    const pid = server.child.pid!;
    await measure(hello, {}, 2, helloPid);
    for (const p of PATHS) await measure(server.base + p, auth, 2, pid);
    const rssStart = rssMb(server.child.pid!);
    const loadBefore = load();
    const rounds: Array<{ hello: Round; ours: Round[] }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const h = await measure(hello, {}, SECONDS, helloPid);
      const ours: Round[] = [];
      for (const p of PATHS) ours.push(await measure(server.base + p, auth, SECONDS, pid));
      rounds.push({ hello: h, ours });
      console.log(
        `${kind} round ${i + 1}: hello ${fmt(h.rps)} req/s (p99 ${h.p99} ms, ${h.errors} errors, CPU ${fmt(h.cpu, 3)} ms/req); ` +
          PATHS.map(
            (p, j) =>
              `${p} ${fmt(ours[j]!.rps)} req/s, p99 ${ours[j]!.p99} ms, ${ours[j]!.errors} errors, ours/hello ${fmt(ours[j]!.rps / h.rps, 4)}, CPU ${fmt(ours[j]!.cpu, 3)} ms/req`,
          ).join('; '),
      );
    }
    const rssEnd = rssMb(server.child.pid!);
    console.log(`\n${kind}: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s`);
    const helloRps = rounds.map((r) => r.hello.rps);
    const helloCpu = median(rounds.map((r) => r.hello.cpu));
    console.log(
      `  hello world: ${fmt(Math.min(...helloRps))} / ${fmt(median(helloRps))} / ${fmt(Math.max(...helloRps))} req/s (min/median/max); CPU ${fmt(helloCpu, 3)} ms/req (median)`,
    );
    PATHS.forEach((p, j) => {
      const rps = rounds.map((r) => r.ours[j]!.rps);
      const ratios = rounds.map((r) => r.ours[j]!.rps / r.hello.rps);
      const p99 = rounds.map((r) => r.ours[j]!.p99);
      const errors = rounds.reduce((n, r) => n + r.ours[j]!.errors, 0);
      const cpu = median(rounds.map((r) => r.ours[j]!.cpu));
      console.log(
        `  GET ${p}: ${fmt(Math.min(...rps))} / ${fmt(median(rps))} / ${fmt(Math.max(...rps))} req/s; ` +
          `ours/hello ${fmt(Math.min(...ratios), 4)} / ${fmt(median(ratios), 4)} / ${fmt(Math.max(...ratios), 4)}; ` +
          `p99 ${fmt(Math.min(...p99))} / ${fmt(median(p99))} / ${fmt(Math.max(...p99))} ms; errors ${errors}; ` +
          `CPU ${fmt(cpu, 3)} ms/req (median), hello's/ours ${fmt(helloCpu / cpu, 4)}`,
      );
    });
    console.log(`  server RSS ${rssStart} MB after warm-up, ${rssEnd} MB at the end`);
    console.log(`  load before: ${loadBefore}`);
    console.log(`  load after:  ${load()}\n`);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

async function main(): Promise<void> {
  const kinds: Array<'pglite' | 'postgres'> =
    args.db === 'both' ? ['pglite', 'postgres'] : [args.db as 'pglite' | 'postgres'];
  console.log(`node ${process.version}, ${os.cpus().length} cores; load: ${load()}`);
  const hello = await startHello();
  try {
    for (const kind of kinds) await runDatabase(kind, hello.url, hello.child.pid!);
  } finally {
    await stop(hello.child);
  }
}

await main();
