import PgBoss from 'pg-boss';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/connect';

/**
 * The phase job queue: pg-boss 10 on PostgreSQL, or on PGlite through a small adapter (embedded
 * mode). One job runs one phase of one session; the job only names the session and the step it
 * was queued for, the session row holds everything else.
 */
export const PHASE_QUEUE = 'agent-phase';

export interface PhaseJob {
  sessionId: string;
  step: number;
}

export interface PhaseQueue {
  state(): 'up' | 'down' | 'not-started';
  /** Queues a phase job; a second job for the same session step is dropped while one waits. */
  enqueue(job: PhaseJob): Promise<void>;
  /** Starts `concurrency` workers that call `handler` for each job. */
  work(concurrency: number, handler: (job: PhaseJob) => Promise<void>): Promise<void>;
  /** Wakes this process's idle workers (a job was queued somewhere). */
  wake(): void;
  /** Stops taking new jobs (shutdown begins). */
  stopWorkers(): Promise<void>;
  stop(): Promise<void>;
}

/** pg-boss's db adapter for PGlite: parameterised statements via query, scripts via exec. */
export function pgliteBossDb(client: PGlite) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [], fields: [] };
    },
  };
}

export async function createPhaseQueue(opts: {
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Upper bound of one phase's run time; pg-boss expires (and retries) a job after it. */
  jobExpireSeconds: number;
  /** Worker processes supervise (expire, archive) jobs; a web-only process only queues. */
  supervise: boolean;
  pollingIntervalSeconds?: number;
}): Promise<PhaseQueue> {
  const { database, log } = opts;
  const common = {
    supervise: opts.supervise,
    schedule: false,
    migrate: true,
    // Finished jobs are only bookkeeping: the session row is the record.
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 7,
  };
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ connectionString: database.url, max: 4, ...common })
      : new PgBoss({ db: pgliteBossDb(database.client), ...common });

  let state: 'up' | 'down' | 'not-started' = 'not-started';
  boss.on('error', (err: Error) => {
    log.warn({ err: err.message }, 'job queue error');
  });
  await boss.start();
  await boss.createQueue(PHASE_QUEUE, { name: PHASE_QUEUE, policy: 'short' });
  state = 'up';
  const workerIds: string[] = [];

  return {
    state: () => state,

    async enqueue(job) {
      await boss.send(PHASE_QUEUE, job, {
        singletonKey: `${job.sessionId}:${job.step}`,
        // Failures the runtime did not handle (database down) are tried again; a phase's own
        // errors end the session and never reach pg-boss.
        retryLimit: 5,
        retryDelay: 2,
        retryBackoff: true,
        expireInSeconds: opts.jobExpireSeconds,
      });
    },

    async work(concurrency, handler) {
      for (let i = 0; i < concurrency; i++) {
        const id = await boss.work<PhaseJob>(
          PHASE_QUEUE,
          { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 },
          async ([job]) => {
            if (job) await handler(job.data);
          },
        );
        workerIds.push(id);
      }
    },

    wake() {
      for (const id of workerIds) boss.notifyWorker(id);
    },

    async stopWorkers() {
      await Promise.all(workerIds.map((id) => boss.offWork({ id })));
    },

    async stop() {
      if (state === 'not-started') return;
      state = 'down';
      // The runtime has already ended its running phases (their sessions are resumed elsewhere);
      // graceful lets pg-boss finish the bookkeeping of those jobs before it closes.
      await boss.stop({ graceful: true, close: true, wait: true, timeout: 5000 });
    },
  };
}
