import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The operator's metrics in Prometheus's text format (GET /api/metrics, when METRICS_ENABLED):
 * this process's requests (rate, status and latency per route), its memory, CPU and event-loop
 * delay (prom-client's default collectors), and readings taken when scraped: agent sessions by
 * status, phase jobs waiting, model tokens used and WebSocket clients. The readings come
 * through hooks the server wires up (`MetricReadings`), so this file knows nothing of the
 * agents or the database. Sessions, queue and tokens are read from the shared database, so
 * every process reports the same totals; requests, memory and sockets are the process's own.
 */

export const METRICS_PREFIX = 'econagents_';

/** What the scrape reads besides the process's own counters. */
export interface MetricReadings {
  /** Agent sessions by status, across all processes. */
  sessionsByStatus(): Promise<Record<string, number>>;
  /** Phase jobs waiting to run, across all processes (null: the queue cannot say). */
  queueDepth(): Promise<number | null>;
  /** Model tokens used since the installation began, by direction. */
  modelTokens(): Promise<{ input: number; output: number }>;
  /** WebSocket clients connected to this process. */
  socketClients(): number;
}

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });
  const requests = new Counter({
    name: `${METRICS_PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: `${METRICS_PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  return {
    registry,
    /** One answered request. `route` is the pattern (/api/projects/:id), never the address. */
    observe(method: string, route: string, status: number, seconds: number): void {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    /** Registers the gauges read at each scrape from `readings`. */
    read(readings: MetricReadings): void {
      new Gauge({
        name: `${METRICS_PREFIX}agent_sessions`,
        help: 'Agent sessions by status',
        labelNames: ['status'] as const,
        registers: [registry],
        async collect() {
          this.reset();
          for (const [status, n] of Object.entries(await readings.sessionsByStatus())) {
            this.set({ status }, n);
          }
        },
      });
      new Gauge({
        name: `${METRICS_PREFIX}queue_waiting_jobs`,
        help: 'Phase jobs waiting to run',
        registers: [registry],
        async collect() {
          const depth = await readings.queueDepth();
          if (depth === null) this.reset();
          else this.set(depth);
        },
      });
      // A gauge, not a counter: the total is read from the database (all processes' calls),
      // not counted here; it only grows, so rate() works on it all the same.
      new Gauge({
        name: `${METRICS_PREFIX}model_tokens`,
        help: 'Model tokens used since the installation began, by direction (input or output)',
        labelNames: ['direction'] as const,
        registers: [registry],
        async collect() {
          const tokens = await readings.modelTokens();
          this.set({ direction: 'input' }, tokens.input);
          this.set({ direction: 'output' }, tokens.output);
        },
      });
      new Gauge({
        name: `${METRICS_PREFIX}websocket_clients`,
        help: 'WebSocket clients connected to this process',
        registers: [registry],
        collect() {
          this.set(readings.socketClients());
        },
      });
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** Counts every answered request by its route pattern (unknown addresses as one "unmatched"). */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/** The METRICS_TOKEN check: the bearer token, compared in constant time. */
export function hasMetricsToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const [scheme, sent] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
