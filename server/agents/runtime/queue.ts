import PgBoss from 'pg-boss';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/connect';

/**
 * The phase job queue: pg-boss 10 on PostgreSQL, or on PGlite through a small adapter (embedded
 * mode). One job runs one phase of one session; the job only names the session and the step it
 * was queued for, the session row holds everything else.
 */
const PHASE_QUEUE = 'agent-phase';
/** How long an acknowledged job waits for its handler before it is recorded done anyway. */
const ACK_DELAY_MS = 1000;

export interface PhaseJob {
  sessionId: string;
  step: number;
}

export interface PhaseQueue {
  state(): 'up' | 'down' | 'not-started';
  /** Jobs waiting to run (queued or to be retried), in every process; null if not answering. */
  depth(): Promise<number | null>;
  /** Queues a phase job; a second job for the same session step is dropped while one waits. */
  enqueue(job: PhaseJob): Promise<void>;
  /**
   * Runs up to `concurrency` jobs at once, calling `handler` for each. The handler may call
   * `ack` to have its job recorded as done before it returns (it goes on with work that no job
   * stands for); a handler that throws after `ack` leaves its job done.
   */
  work(
    concurrency: number,
    handler: (job: PhaseJob, ack: () => void) => Promise<void>,
  ): Promise<void>;
  /**
   * Runs the job in this process without queueing it, if this process runs jobs (`work` was
   * called), is not stopping and has a free slot; false otherwise (the caller queues it). A
   * handler that throws has its job queued then, so it is tried again as a queued job would be.
   */
  runHere(job: PhaseJob): boolean;
  /** Wakes this process's idle workers (a job was queued somewhere). */
  wake(): void;
  /** Stops taking new jobs (shutdown begins). */
  stopWorkers(): Promise<void>;
  stop(): Promise<void>;
}

/** pg-boss's db adapter for PGlite: parameterised statements via query, scripts via exec. */
function pgliteBossDb(client: PGlite) {
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

  const jobOptions = (job: PhaseJob): PgBoss.SendOptions => ({
    singletonKey: `${job.sessionId}:${job.step}`,
    // Failures the runtime did not handle (database down) are tried again; a phase's own
    // errors end the session and never reach pg-boss.
    retryLimit: 5,
    retryDelay: 2,
    retryBackoff: true,
    expireInSeconds: opts.jobExpireSeconds,
  });

  let state: 'up' | 'down' | 'not-started' = 'not-started';
  boss.on('error', (err: Error) => {
    log.warn({ err: err.message }, 'job queue error');
  });
  await boss.start();
  await boss.createQueue(PHASE_QUEUE, { name: PHASE_QUEUE, policy: 'short' });
  state = 'up';
  const pollMs = (opts.pollingIntervalSeconds ?? 2) * 1000;
  let stopping = false;
  let running: Promise<void> = Promise.resolve();
  let sleeper: (() => void) | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let again = false;
  // The dispatcher's slots, shared with jobs run here without the queue (runHere).
  let slots: { concurrency: number; active: number } | undefined;
  let runJob: ((job: PhaseJob, ack: () => void) => Promise<void>) | undefined;
  function wake(): void {
    again = true;
    if (idleTimer) clearTimeout(idleTimer);
    sleeper?.();
  }

  return {
    state: () => state,

    async depth() {
      if (state !== 'up') return null;
      return boss.getQueueSize(PHASE_QUEUE).catch(() => null);
    },

    async enqueue(job) {
      await boss.send(PHASE_QUEUE, job, jobOptions(job));
    },

    async work(concurrency, handler) {
      // One dispatcher per process, not one pg-boss poller per slot: a single fetch takes as many
      // jobs as there are free slots, so an idle process costs one query per polling interval
      // (PGlite has a single connection that every query waits for).
      const own = { concurrency, active: 0 };
      slots = own;
      runJob = handler;
      const loop = async () => {
        while (!stopping) {
          again = false;
          const free = own.concurrency - own.active;
          if (free > 0) {
            let jobs: Array<{ id: string; data: PhaseJob }> = [];
            try {
              jobs = (await boss.fetch<PhaseJob>(PHASE_QUEUE, { batchSize: free })) ?? [];
            } catch (err) {
              log.warn({ err: (err as Error).message }, 'could not fetch phase jobs');
            }
            for (const job of jobs) {
              own.active++;
              let completed: Promise<unknown> | undefined;
              let ackTimer: NodeJS.Timeout | undefined;
              const complete = () => {
                clearTimeout(ackTimer);
                return (completed ??= boss.complete(PHASE_QUEUE, job.id).catch((err: unknown) => {
                  log.warn({ err: (err as Error).message }, 'could not record job outcome');
                }));
              };
              // An acknowledged job is recorded done when its handler returns, or after a second
              // if it goes on (before the job could expire): not in the middle of the next
              // phase's first statements (PGlite runs one statement at a time).
              const ack = () => {
                if (!completed && !ackTimer) ackTimer = setTimeout(complete, ACK_DELAY_MS);
              };
              void handler(job.data, ack)
                .then(complete, (err: unknown) =>
                  completed || ackTimer
                    ? complete()
                    : boss.fail(PHASE_QUEUE, job.id, { message: (err as Error).message }),
                )
                .catch((err: unknown) => {
                  log.warn({ err: (err as Error).message }, 'could not record job outcome');
                })
                .finally(() => {
                  own.active--;
                  wake();
                });
            }
            // A full batch may mean more are waiting.
            if (jobs.length === free && free > 0) continue;
          }
          if (again || stopping) continue;
          await new Promise<void>((resolve) => {
            sleeper = resolve;
            idleTimer = setTimeout(resolve, pollMs);
          });
          sleeper = undefined;
        }
      };
      running = loop();
    },

    runHere(job) {
      if (!slots || !runJob || stopping || slots.active >= slots.concurrency) return false;
      const own = slots;
      own.active++;
      void runJob(job, () => undefined)
        .catch(async (err: unknown) => {
          log.warn(
            { err: (err as Error).message, sessionId: job.sessionId },
            'phase run here failed; queueing its job',
          );
          await boss.send(PHASE_QUEUE, job, jobOptions(job));
        })
        .catch((err: unknown) => {
          // The session keeps its state; the sweep queues it once its lease has expired.
          log.warn(
            { err: (err as Error).message, sessionId: job.sessionId },
            'could not queue job',
          );
        })
        .finally(() => {
          own.active--;
          wake();
        });
      return true;
    },

    wake,

    async stopWorkers() {
      stopping = true;
      wake();
      await running;
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
