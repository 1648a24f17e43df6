/**
 * WebSocket fan-out: N clients (default 1,000) subscribed to one session on a real server
 * process; the session produces updates (feedback re-runs of a phase) and every client records
 * when each update arrived. Delivery time = arrival - the update's timestamp (set by the server
 * just before it publishes, after the database write), so it covers the event bus, the hub's
 * fan-out and the network. Clients record the arrival time and the raw bytes and parse them
 * after the run, so one client's JSON parsing does not delay the next one's arrival time.
 *
 * Anchor, in the same run and with the same clients' code: a bare `ws` server
 * (bench/ws/hello-broadcast.ts) sending the same number of messages of our updates' median size
 * to as many sockets, in bursts of a round's size. ours / anchor says what the bus, the hub and the database add over what
 * any Node WebSocket server needs on this machine.
 *
 *   npx tsx bench/ws/fanout.ts [clients=1000] [rounds=20]
 *   DATABASE_URL=postgres://... npx tsx bench/ws/fanout.ts   (LISTEN/NOTIFY instead of in-process)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { WsServerMessage } from '../../common/agents';
import { apiLogin, E2E_ADMIN, freePort, ROOT } from '../../e2e/harness';
import { httpSessions, spawnRuntimeProcess, waitHealthy } from '../../test/teams/processes';
import { wsUrl } from '../../test/teams/ws-client';

const CLIENTS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 20);
/** Updates per feedback round of the test team (logs, feedback, phase, checkpoint). */
const UPDATES_PER_ROUND = 8;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a client received: when, and the bytes (parsed after the run). */
interface Arrival {
  at: number;
  data: Buffer;
}

interface Clients {
  arrivals: Arrival[];
  connectMs: number;
  close(): void;
}

/**
 * N sockets, 50 at a time, each sending `subscribe` (when given) once open and counted as ready
 * at its `subscribed` reply. Every later message is recorded raw.
 */
async function connectClients(url: string, n: number, subscribe?: string): Promise<Clients> {
  const arrivals: Arrival[] = [];
  const sockets: WebSocket[] = [];
  const started = performance.now();
  for (let batch = 0; batch < n; batch += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - batch) }, async () => {
        const ws = new WebSocket(url);
        sockets.push(ws);
        await new Promise<void>((resolve, reject) => {
          let ready = false;
          ws.once('error', reject);
          ws.on('message', (data: Buffer) => {
            const at = Date.now();
            if (ready) {
              arrivals.push({ at, data });
              return;
            }
            const m = JSON.parse(data.toString()) as WsServerMessage;
            if (m.type === 'subscribed') {
              ready = true;
              resolve();
            }
          });
          if (subscribe) ws.once('open', () => ws.send(subscribe));
        });
      }),
    );
  }
  return {
    arrivals,
    connectMs: performance.now() - started,
    close: () => sockets.forEach((ws) => ws.terminate()),
  };
}

interface FanOut {
  updates: number;
  complete: number;
  deliveries: number[];
  lastClient: number[];
  medianBytes: number;
}

/**
 * Groups the raw arrivals by update and measures each delivery. An update is serialised once and
 * the same bytes go to every client, so its text is its key (two updates of the same type in the
 * same millisecond and of the same size stay apart).
 */
function measure(arrivals: Arrival[], clients: number): FanOut {
  const byUpdate = new Map<string, { sent: number; at: number[] }>();
  const sizes: number[] = [];
  for (const { at, data } of arrivals) {
    const key = data.toString();
    let entry = byUpdate.get(key);
    if (!entry) {
      const m = JSON.parse(key) as WsServerMessage;
      if (m.type !== 'session-update') continue;
      entry = { sent: Date.parse(m.timestamp), at: [] };
    }
    if (entry.at.length === 0) sizes.push(data.length);
    entry.at.push(at);
    byUpdate.set(key, entry);
  }
  const deliveries: number[] = [];
  const lastClient: number[] = [];
  let complete = 0;
  for (const { sent, at } of byUpdate.values()) {
    for (const t of at) deliveries.push(t - sent);
    lastClient.push(Math.max(...at) - sent);
    if (at.length === clients) complete++;
  }
  deliveries.sort((a, b) => a - b);
  lastClient.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  return {
    updates: byUpdate.size,
    complete,
    deliveries,
    lastClient,
    medianBytes: percentile(sizes, 50),
  };
}

/** Our server: a session re-running a phase on feedback, N sockets following it. */
async function ours(): Promise<FanOut & { connectMs: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-bench-ws-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnRuntimeProcess('server/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    RATE_LIMIT_MAX: '1000000',
    ...(process.env.DATABASE_URL
      ? { DATABASE_URL: process.env.DATABASE_URL, EMBEDDED_WORKER: 'true' }
      : {}),
  });
  try {
    await waitHealthy(baseUrl, server);
    const { tokens } = await apiLogin(baseUrl, E2E_ADMIN.email, E2E_ADMIN.password);
    const api = httpSessions(baseUrl, tokens.accessToken);
    const sessionId = await api.start('fan out');
    await api.waitFor(sessionId, (s) => s.status === 'waiting_for_input');
    const clients = await connectClients(
      wsUrl(baseUrl, tokens.accessToken),
      CLIENTS,
      JSON.stringify({
        type: 'subscribe',
        subscriptionType: 'runtime-test-team',
        filters: { sessionId },
      }),
    );
    for (let round = 1; round <= ROUNDS; round++) {
      await api.feedback(sessionId, `round ${round}`);
      await api.waitFor(
        sessionId,
        (s) => s.status === 'waiting_for_input' && s.feedback.length === round,
      );
    }
    await sleep(1000); // the last updates arrive everywhere
    clients.close();
    return { ...measure(clients.arrivals, CLIENTS), connectMs: clients.connectMs };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The anchor: as many messages of `bytes` from a bare ws server, spaced as ours arrive. */
async function anchor(messages: number, bytes: number): Promise<FanOut & { connectMs: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ws/hello-broadcast.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`hello-broadcast exited with ${code}`)));
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    });
    const clients = await connectClients(`ws://127.0.0.1:${port}/ws`, CLIENTS);
    // Bursts of a round's updates, as ours come (a phase's lines, its end, the checkpoint).
    for (let i = 0; i < messages; i += UPDATES_PER_ROUND) {
      await fetch(`http://127.0.0.1:${port}/broadcast?bytes=${bytes}&count=${UPDATES_PER_ROUND}`, {
        method: 'POST',
      });
      await sleep(200);
    }
    await sleep(1000);
    clients.close();
    return { ...measure(clients.arrivals, CLIENTS), connectMs: clients.connectMs };
  } finally {
    child.kill('SIGTERM');
  }
}

function print(name: string, r: FanOut & { connectMs: number }): void {
  console.log(`${name}`);
  console.log(
    `  connect + subscribe ${CLIENTS} clients: ${fmt(r.connectMs)}; updates ${r.updates} (${r.complete} reached every client), median ${r.medianBytes} bytes`,
  );
  console.log(
    `  one delivery:               p50 ${fmt(percentile(r.deliveries, 50))}  p99 ${fmt(percentile(r.deliveries, 99))}  max ${fmt(r.deliveries.at(-1) ?? NaN)}`,
  );
  console.log(
    `  last of ${CLIENTS} clients:     p50 ${fmt(percentile(r.lastClient, 50))}  p99 ${fmt(percentile(r.lastClient, 99))}  max ${fmt(r.lastClient.at(-1) ?? NaN)}`,
  );
}

async function main(): Promise<void> {
  const bus = process.env.DATABASE_URL ? 'PostgreSQL LISTEN/NOTIFY' : 'in-process (PGlite)';
  console.log(
    `WebSocket fan-out, ${CLIENTS} clients, ${ROUNDS} rounds; load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const o = await ours();
  const a = await anchor(ROUNDS * UPDATES_PER_ROUND, o.medianBytes);
  print(`ours (event bus ${bus})`, o);
  print('anchor (bare ws broadcast)', a);
  const ratio = (p: number) =>
    (percentile(o.lastClient, p) / percentile(a.lastClient, p)).toFixed(2);
  console.log(`last of ${CLIENTS}, ours / anchor: p50 ${ratio(50)}x  p99 ${ratio(99)}x`);
  console.log(`load after ${os.loadavg()[0]!.toFixed(1)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
