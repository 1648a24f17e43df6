/**
 * WebSocket fan-out: N clients (default 1,000) subscribed to one session on a real server
 * process; the session produces updates (feedback re-runs of a phase) and every client records
 * when each update arrived. Delivery time = arrival - the update's timestamp (set by the server
 * just before it publishes, after the database write), so it covers the event bus, the hub's
 * fan-out, the network and the client's JSON parse.
 *
 *   npx tsx bench/ws-fanout.ts [clients=1000] [rounds=20]
 *   DATABASE_URL=postgres://... npx tsx bench/ws-fanout.ts   (LISTEN/NOTIFY instead of in-process)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { WsServerMessage } from '../common/agents';
import { apiLogin, E2E_ADMIN, freePort } from '../e2e/harness';
import { httpSessions, spawnRuntimeProcess, waitHealthy } from '../test/teams/processes';
import { wsUrl } from '../test/teams/ws-client';

const CLIENTS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 20);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
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

    /** update key -> arrival times (ms) at each client, and its server timestamp. */
    const arrivals = new Map<string, { sent: number; at: number[] }>();
    const sockets: WebSocket[] = [];
    const connectStarted = performance.now();
    for (let batch = 0; batch < CLIENTS; batch += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, CLIENTS - batch) }, async () => {
          const ws = new WebSocket(wsUrl(baseUrl, tokens.accessToken));
          sockets.push(ws);
          await new Promise<void>((resolve, reject) => {
            ws.once('error', reject);
            ws.on('message', (data) => {
              const now = Date.now();
              const m = JSON.parse(data.toString()) as WsServerMessage;
              if (m.type === 'subscribed') resolve();
              if (m.type !== 'session-update') return;
              const key = `${m.updateType}:${m.timestamp}:${JSON.stringify(m.data).length}`;
              const entry = arrivals.get(key) ?? { sent: Date.parse(m.timestamp), at: [] };
              entry.at.push(now);
              arrivals.set(key, entry);
            });
            ws.once('open', () =>
              ws.send(
                JSON.stringify({
                  type: 'subscribe',
                  subscriptionType: 'runtime-test-team',
                  filters: { sessionId },
                }),
              ),
            );
          });
        }),
      );
    }
    const connectMs = performance.now() - connectStarted;

    const runStarted = performance.now();
    for (let round = 1; round <= ROUNDS; round++) {
      await api.feedback(sessionId, `round ${round}`);
      await api.waitFor(
        sessionId,
        (s) => s.status === 'waiting_for_input' && s.feedback.length === round,
      );
    }
    // Let the last updates arrive everywhere.
    await new Promise((r) => setTimeout(r, 1000));
    const runMs = performance.now() - runStarted;

    const perDelivery: number[] = [];
    const lastClient: number[] = [];
    let complete = 0;
    for (const { sent, at } of arrivals.values()) {
      for (const t of at) perDelivery.push(t - sent);
      lastClient.push(Math.max(...at) - sent);
      if (at.length === CLIENTS) complete++;
    }
    perDelivery.sort((a, b) => a - b);
    lastClient.sort((a, b) => a - b);
    const bus = process.env.DATABASE_URL ? 'PostgreSQL LISTEN/NOTIFY' : 'in-process (PGlite)';
    console.log(`WebSocket fan-out: ${CLIENTS} clients on one session, event bus ${bus}`);
    console.log(`  connect + subscribe all clients: ${fmt(connectMs)}`);
    console.log(
      `  updates: ${arrivals.size} (${complete} reached all ${CLIENTS} clients), deliveries: ${perDelivery.length}, run ${fmt(runMs)}`,
    );
    console.log(
      `  one delivery (update -> a client):      p50 ${fmt(percentile(perDelivery, 50))}  p99 ${fmt(percentile(perDelivery, 99))}  max ${fmt(perDelivery.at(-1) ?? NaN)}`,
    );
    console.log(
      `  one update to all clients (last one):  p50 ${fmt(percentile(lastClient, 50))}  p99 ${fmt(percentile(lastClient, 99))}  max ${fmt(lastClient.at(-1) ?? NaN)}`,
    );
    for (const ws of sockets) ws.terminate();
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
