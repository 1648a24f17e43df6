/**
 * Soak: a real server process under mixed API load with live agent sessions on the scripted
 * model server, for a long time, printing errors and the server's memory as it goes. Run by
 * hand; the numbers go in docs/performance.md.
 *
 *   npx tsx bench/soak/soak.ts                   # 30 minutes, 20 live sessions, embedded DB
 *   npx tsx bench/soak/soak.ts --minutes 5 --sessions 20 --api-loops 4 --sample-seconds 30
 *   DATABASE_URL=postgres://... npx tsx bench/soak/soak.ts --minutes 10
 *
 * The server runs as `npm run serve` does (node --import tsx, one process with its job worker),
 * with the runtime's test team added (test/teams/serve-with-test-team.ts), in a fresh DATA_DIR
 * (or on DATABASE_URL, whose database should be empty). What runs against it:
 *
 * - `--sessions` live agent sessions at all times, spread over five researchers: the test
 *   team's four phases with two checkpoints, each approved when reached, two model calls per
 *   session to the scripted server (which answers after `--model-ms`); a finished session is
 *   replaced by a new one.
 * - `--api-loops` loops of ordinary API calls, one after another: projects (create, list,
 *   update, delete), documents, datasets (a small CSV through the Data Explorer's upload, so
 *   DuckDB loads and profiles it, then deleted), settings, notifications, the dashboard, the
 *   session list and /api/ready.
 * - A WebSocket per researcher, counting the updates it receives.
 *
 * An error is any reply of 500 or more, any other reply the call does not expect, a failed
 * connection, or a session that ends in error. Every `--sample-seconds` a line gives the
 * server's resident memory (its process and children), requests, errors, sessions finished and
 * request latency (p50/p95) since the last line; the end gives the totals and the memory's
 * least-squares slope after the first minute and over the second half of the run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { APPROVAL_FEEDBACK } from '../../common/agents';
import { startScriptedLlmServer } from '../../test/llm-server';
import { MULTIPART_HEADERS, multipartBody } from '../../test/multipart';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    sessions: { type: 'string', default: '20' },
    'api-loops': { type: 'string', default: '4' },
    'sample-seconds': { type: 'string', default: '60' },
    'model-ms': { type: 'string', default: '1500' },
  },
});
const MINUTES = Number(args.minutes);
const SESSIONS = Number(args.sessions);
const API_LOOPS = Number(args['api-loops']);
const SAMPLE_MS = Number(args['sample-seconds']) * 1000;
const MODEL_MS = Number(args['model-ms']);
const RESEARCHERS = 5;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const ADMIN = { email: 'soak-admin@example.org', password: 'soak-admin-password-1' };
const METRICS_TOKEN = 'soak-metrics-token-0123456789';

/** Counters since the last sample, and for the whole run. */
const stats = {
  requests: 0,
  errors: 0,
  sessionsDone: 0,
  sessionErrors: 0,
  wsMessages: 0,
  latencies: [] as number[],
  total: { requests: 0, errors: 0, sessionsDone: 0, sessionErrors: 0, wsMessages: 0 },
  errorSamples: [] as string[],
};

function recordError(what: string): void {
  stats.errors++;
  stats.total.errors++;
  if (stats.errorSamples.length < 20) stats.errorSamples.push(what);
}

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

/** Resident memory of the server process and its children (the PDF reader, sandboxes), in MB. */
function serverRssMb(pid: number): number {
  const rss = (p: number) => {
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  let total = rss(pid);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) total += rss(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return total;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const llm = await startScriptedLlmServer();
  // Every model call of the test team gets a short text after MODEL_MS (the last reply repeats).
  llm.script({ replies: [{ text: 'A one-sentence research draft.', delayMs: MODEL_MS }] });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-soak-'));
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/teams/serve-with-test-team.ts'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ...(process.env.DATABASE_URL
          ? { DATABASE_URL: process.env.DATABASE_URL, EMBEDDED_WORKER: 'true' }
          : {}),
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // The soak outlasts the default 15-minute token; its clients do not refresh.
        ACCESS_TOKEN_TTL_SECONDS: '86400',
        RATE_LIMIT_MAX: '100000',
        AGENT_MAX_CONCURRENT_SESSIONS: String(Math.ceil(SESSIONS / RESEARCHERS) + 1),
        LLM_PROVIDER: 'openai-compatible',
        LLM_MODEL: 'scripted-model',
        OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
        METRICS_ENABLED: 'true',
        METRICS_TOKEN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let serverOutput = '';
  server.stdout.on(
    'data',
    (d: Buffer) => (serverOutput = (serverOutput + d.toString()).slice(-20_000)),
  );
  server.stderr.on(
    'data',
    (d: Buffer) => (serverOutput = (serverOutput + d.toString()).slice(-20_000)),
  );
  const pid = server.pid!;
  const stopServer = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  };

  try {
    const started = Date.now();
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited:\n${serverOutput}`);
      if (Date.now() - started > 120_000) throw new Error(`server not up:\n${serverOutput}`);
      const up = await fetch(`${baseUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 300));
    }

    /** One timed call; `expected` lists the statuses that are not errors. */
    async function call(
      token: string | null,
      method: string,
      url: string,
      body?: unknown,
      expected: number[] = [200, 201],
    ): Promise<{ status: number; json: Record<string, unknown> }> {
      const t0 = performance.now();
      const multipart = Buffer.isBuffer(body);
      try {
        const res = await fetch(`${baseUrl}${url}`, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body === undefined
              ? {}
              : multipart
                ? MULTIPART_HEADERS
                : { 'content-type': 'application/json' }),
          },
          body:
            body === undefined
              ? undefined
              : Buffer.isBuffer(body)
                ? new Uint8Array(body)
                : JSON.stringify(body),
        });
        const text = await res.text();
        stats.requests++;
        stats.total.requests++;
        stats.latencies.push(performance.now() - t0);
        if (!expected.includes(res.status))
          recordError(`${method} ${url} -> ${res.status} ${text.slice(0, 200)}`);
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // Prometheus text, CSV
        }
        return { status: res.status, json };
      } catch (error) {
        stats.requests++;
        stats.total.requests++;
        recordError(`${method} ${url} -> ${(error as Error).message}`);
        return { status: 0, json: {} };
      }
    }
    const data = <T>(r: { json: Record<string, unknown> }) => r.json.data as T;

    const admin = data<{ tokens: { accessToken: string } }>(
      await call(null, 'POST', '/api/auth/login', ADMIN),
    ).tokens.accessToken;
    const researchers: string[] = [];
    for (let i = 0; i < RESEARCHERS; i++) {
      const email = `soak-${i}@example.org`;
      const password = 'soak-password-1';
      await call(null, 'POST', '/api/auth/register', { email, password, displayName: `Soak ${i}` });
      const users = data<{ users: Array<{ id: string; email: string }> }>(
        await call(admin, 'GET', '/api/auth/users?limit=500'),
      ).users;
      const id = users.find((u) => u.email === email)!.id;
      await call(admin, 'PUT', `/api/auth/users/${id}/status`, { status: 'approved' });
      researchers.push(
        data<{ tokens: { accessToken: string } }>(
          await call(null, 'POST', '/api/auth/login', { email, password }),
        ).tokens.accessToken,
      );
    }

    const deadline = Date.now() + MINUTES * 60_000;
    const running = () => Date.now() < deadline;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    // WebSocket clients: one per researcher, counting what arrives.
    const sockets = researchers.map((token) => {
      const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?token=${token}`);
      ws.on('message', () => {
        stats.wsMessages++;
        stats.total.wsMessages++;
      });
      ws.on('error', (e) => recordError(`ws: ${e.message}`));
      // Every update of the researcher's test-team sessions.
      ws.on('open', () =>
        ws.send(JSON.stringify({ type: 'subscribe', subscriptionType: 'runtime-test-team' })),
      );
      return ws;
    });

    /** One live session after another, approving each checkpoint, until the time is up. */
    async function sessionLoop(token: string, n: number): Promise<void> {
      while (running()) {
        const start = await call(token, 'POST', '/api/agents/sessions', {
          teamId: 'runtime-test',
          input: { topic: `soak topic ${n}` },
          configuration: { useModel: true, modelInAnalyse: true, delayMs: 200 },
        });
        const id = start.json.sessionId as string | undefined;
        if (!id) {
          await sleep(2000);
          continue;
        }
        let approvedCheckpoint: number | null = null;
        while (running()) {
          await sleep(1000);
          const r = await call(token, 'GET', `/api/agents/sessions/${id}`);
          const s = r.json.session as
            { status: string; checkpoint: number | null; error: string | null } | undefined;
          if (!s) continue;
          if (s.status === 'completed') {
            stats.sessionsDone++;
            stats.total.sessionsDone++;
            break;
          }
          if (s.status === 'error' || s.status === 'cancelled') {
            stats.sessionErrors++;
            stats.total.sessionErrors++;
            recordError(`session ${id} ended ${s.status}: ${s.error ?? ''}`);
            break;
          }
          if (s.status === 'waiting_for_input' && s.checkpoint !== approvedCheckpoint) {
            approvedCheckpoint = s.checkpoint;
            await call(token, 'POST', `/api/agents/sessions/${id}/feedback`, {
              feedback: APPROVAL_FEEDBACK,
            });
          }
        }
      }
    }

    const CSV = `year,gdp,unemployment\n${Array.from({ length: 200 }, (_, i) => `${1900 + i},${(i * 1.7).toFixed(2)},${(5 + Math.sin(i)).toFixed(3)}`).join('\n')}\n`;

    /** Ordinary API use, one call after another, leaving the database about as it found it. */
    async function apiLoop(token: string, n: number): Promise<void> {
      let round = 0;
      while (running()) {
        round++;
        const p = await call(token, 'POST', '/api/projects', {
          title: `Soak project ${n}-${round}`,
          researchArea: 'Other',
        });
        const projectId = data<{ project?: { id: string } }>(p)?.project?.id;
        await call(token, 'GET', '/api/projects?limit=20');
        if (projectId) {
          await call(token, 'PATCH', `/api/projects/${projectId}`, { description: 'Soak test' });
          await call(token, 'GET', `/api/projects/${projectId}`);
        }
        const d = await call(token, 'POST', '/api/documents', {
          name: `Notes ${round}`,
          category: 'research_report',
          content: `# Notes\n\n${'Soak text. '.repeat(200)}`,
          ...(projectId ? { projectId } : {}),
        });
        const documentId = data<{ document?: { id: string } }>(d)?.document?.id;
        await call(token, 'GET', '/api/documents?limit=20');
        if (documentId) await call(token, 'DELETE', `/api/documents/${documentId}`);
        await call(token, 'GET', '/api/dashboard');
        await call(token, 'GET', '/api/notifications');
        await call(token, 'GET', '/api/settings');
        await call(token, 'PUT', '/api/settings', {
          profile: { theme: round % 2 ? 'dark' : 'light' },
        });
        await call(token, 'GET', '/api/agents/sessions?limit=20');
        await call(null, 'GET', '/api/ready');
        if (round % 5 === 0) {
          // A dataset through DuckDB: upload, Parquet copy, profile; then deleted.
          const up = await call(
            token,
            'POST',
            '/api/agents/data-team/datasets/upload',
            multipartBody({ name: `Soak data ${n}-${round}` }, [
              { name: 'series.csv', content: CSV },
            ]),
          );
          const datasetId = data<{ dataset?: { id: string } }>(up)?.dataset?.id;
          if (datasetId) {
            await call(token, 'GET', `/api/agents/data-team/datasets/${datasetId}/rows?limit=50`);
            await call(token, 'DELETE', `/api/datasets/${datasetId}`);
          }
        }
        if (projectId) await call(token, 'DELETE', `/api/projects/${projectId}`);
      }
    }

    const samples: Array<{ minute: number; rssMb: number }> = [];
    const t0 = Date.now();
    const sample = async () => {
      const rssMb = serverRssMb(pid);
      const minute = (Date.now() - t0) / 60_000;
      samples.push({ minute, rssMb });
      const metrics = await fetch(`${baseUrl}/api/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      }).then(
        (r) => r.text(),
        () => '',
      );
      const gauge = (name: string) =>
        /\n(\S+) (\d+(?:\.\d+)?)/.exec(
          metrics
            .split('\n')
            .filter((l) => l.startsWith(name))
            .map((l) => `\n${l}`)
            .join(''),
        )?.[2];
      console.log(
        [
          `${minute.toFixed(1).padStart(5)} min`,
          `rss ${rssMb.toFixed(0).padStart(5)} MB`,
          `heap ${(Number(gauge('econagents_nodejs_heap_size_used_bytes') ?? 0) / 1048576).toFixed(0).padStart(4)} MB`,
          `req ${String(stats.requests).padStart(6)}`,
          `err ${String(stats.errors).padStart(3)}`,
          `sessions done ${String(stats.sessionsDone).padStart(4)}`,
          `p50 ${percentile(stats.latencies, 50).toFixed(0).padStart(4)} ms`,
          `p95 ${percentile(stats.latencies, 95).toFixed(0).padStart(5)} ms`,
          `ws msgs ${stats.wsMessages}`,
          `queue ${gauge('econagents_queue_waiting_jobs') ?? '?'}`,
        ].join(' | '),
      );
      stats.requests = 0;
      stats.errors = 0;
      stats.sessionsDone = 0;
      stats.wsMessages = 0;
      stats.latencies = [];
    };
    console.log(
      `soak: ${MINUTES} min, ${SESSIONS} live sessions, ${API_LOOPS} API loops, model ${MODEL_MS} ms, ` +
        `${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, server pid ${pid}`,
    );
    await sample();
    const sampler = setInterval(() => void sample(), SAMPLE_MS);
    await Promise.all([
      ...Array.from({ length: SESSIONS }, (_, i) => sessionLoop(researchers[i % RESEARCHERS]!, i)),
      ...Array.from({ length: API_LOOPS }, (_, i) => apiLoop(researchers[i % RESEARCHERS]!, i)),
    ]);
    clearInterval(sampler);
    await sample();
    for (const ws of sockets) ws.close();

    // Least-squares slopes of resident memory: after the first minute (start-up and warm-up
    // left out) and over the second half.
    const slopeOf = (points: typeof samples) => {
      if (points.length < 3) return NaN;
      const mx = points.reduce((a, p) => a + p.minute, 0) / points.length;
      const my = points.reduce((a, p) => a + p.rssMb, 0) / points.length;
      const sxy = points.reduce((a, p) => a + (p.minute - mx) * (p.rssMb - my), 0);
      const sxx = points.reduce((a, p) => a + (p.minute - mx) ** 2, 0);
      return sxy / sxx;
    };
    const warm = slopeOf(samples.filter((s) => s.minute >= 1));
    const slope = slopeOf(samples.filter((s) => s.minute >= MINUTES / 2));
    const rss = samples.map((s) => s.rssMb);
    console.log('\nsummary');
    console.log(`  requests ${stats.total.requests}, errors ${stats.total.errors}`);
    console.log(
      `  sessions completed ${stats.total.sessionsDone}, ended in error ${stats.total.sessionErrors}`,
    );
    console.log(`  WebSocket messages ${stats.total.wsMessages}`);
    console.log(
      `  server RSS: first ${rss[0]!.toFixed(0)} MB, last ${rss[rss.length - 1]!.toFixed(0)} MB, ` +
        `max ${Math.max(...rss).toFixed(0)} MB; slope after the first minute ${warm.toFixed(1)} ` +
        `MB/min, over the second half ${slope.toFixed(1)} MB/min`,
    );
    if (stats.errorSamples.length > 0) {
      console.log('  first errors:');
      for (const e of stats.errorSamples) console.log(`    ${e}`);
    }
  } finally {
    await stopServer();
    await llm.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
