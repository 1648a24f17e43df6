import type { AppContext } from '../context';
import type { AgentRuntime } from './runtime/types';
import { issueDownloadToken } from '../platform/access';
import { createEventBus } from '../platform/events';
import { CHANNELS, type JobsMessage, type RuntimeCore } from './runtime/runtime-core';
import { createServiceHost } from '../platform/services';
import { createWorkspace } from './kit/workspace';
import { createModelLayer } from './llm/model-layer';
import { createPhaseQueue } from './runtime/queue';
import { createTeamRegistry } from './runtime/registry';
import type { TeamDefinition } from './runtime/team';
import { registerAgentRoutes } from './runtime/routes';
import { createRunner, type Runner } from './runtime/runner';
import { createSessionService } from './runtime/service';
import { createSessionStore } from './runtime/store';
import { productTeams } from './teams';
import {
  ACCESS_REVOKED_CHANNEL,
  announceAccessRevoked,
  createWsHub,
  type WsHub,
} from './runtime/ws';
import { createWorkflows } from './workflows';

export type { TeamDefinition } from './runtime/team';

/** Extra time pg-boss gives a phase job beyond the phase timeout before it expires the job. */
const JOB_EXPIRY_MARGIN_SECONDS = 120;

/**
 * Creates the agent runtime (sessions, job queue, /ws channel, v2 agents API).
 * `worker` runs phase jobs in this process (embedded mode, or `npm run worker`); without it the
 * process only queues jobs (a web process with EMBEDDED_WORKER=false).
 */
export async function createAgentRuntime(
  ctx: Omit<AppContext, 'agents'>,
  opts: {
    worker: boolean;
    /** Teams to run besides the product's (tests add their internal team here). */
    extraTeams?: TeamDefinition[];
  },
): Promise<AgentRuntime> {
  const settings = ctx.config.agents;
  const leaseMs = settings.leaseSeconds * 1000;
  const teams = [...productTeams, ...(opts.extraTeams ?? [])];
  const services = createServiceHost({
    env: ctx.config.env,
    dataDir: ctx.config.dataDir,
    log: ctx.log,
  });
  // Built now, not on first use: a bad variable in a fragment stops the start with its name.
  for (const team of teams) services.instancesOf(team.services);
  const registry = createTeamRegistry(teams, services);
  const bus = await createEventBus(ctx.database, ctx.log);
  // Each process keeps its requests' active users (platform/active-users.ts): a user whose access
  // changed in any process is read again, and after a lost bus connection every user is.
  const unsubscribeAccess = bus.subscribe(ACCESS_REVOKED_CHANNEL, (payload) => {
    const userId = (payload as { userId?: unknown } | null)?.userId;
    if (typeof userId === 'string') ctx.activeUsers.invalidate(userId);
  });
  const unsubscribeReconnect = bus.onReconnect(() => ctx.activeUsers.clear());
  const models = createModelLayer({
    config: ctx.config,
    loadUserLlmSettings: ctx.loadUserLlmSettings,
    db: ctx.db,
    log: ctx.log,
  });
  const queue = await createPhaseQueue({
    database: ctx.database,
    log: ctx.log,
    jobExpireSeconds: settings.phaseTimeoutSeconds + JOB_EXPIRY_MARGIN_SECONDS,
    supervise: opts.worker,
    // Embedded, every job is queued in this process and wakes the dispatcher at once; polling is
    // only the fallback for retries. Scaled out, other processes' jobs also wake it (NOTIFY).
    pollingIntervalSeconds: ctx.database.kind === 'pglite' ? 10 : 2,
  });
  const store = createSessionStore(ctx.db);
  const core: RuntimeCore = {
    app: ctx,
    services,
    store,
    registry,
    bus,
    queue,
    models,
    limits: {
      maxConcurrentSessions: settings.maxConcurrentSessions,
      sessionTokenBudget: settings.sessionTokenBudget,
      phaseTimeoutMs: settings.phaseTimeoutSeconds * 1000,
      leaseMs,
    },
    instance: crypto.randomUUID(),
  };
  const sessions = createSessionService(core);
  // Every process follows workflows (the version check lets one of them move each on).
  const workflows = createWorkflows(core, sessions, {
    reconcileEveryMs: Math.max(1000, Math.floor(leaseMs / 2)),
    missingSessionGraceMs: Math.max(10_000, leaseMs),
  });

  let runner: Runner | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  if (opts.worker) {
    runner = createRunner(core);
    const r = runner;
    bus.subscribe(CHANNELS.jobs, (payload) => {
      // Jobs this process queued woke its workers when they were queued.
      if ((payload as Partial<JobsMessage> | null)?.from !== core.instance) queue.wake();
    });
    await bus.ready();
    // Embedded, this process owns the database: any lease left is from a process that died.
    if (ctx.database.kind === 'pglite') {
      const cleared = await store.clearAllLeases();
      if (cleared > 0) ctx.log.info({ sessions: cleared }, 'released leases of a previous process');
    }
    await queue.work(settings.workerConcurrency, (job, ack) => r.run(job, ack));
    // Sessions left processing (process killed, or stopped mid-phase) are resumed now.
    const resumed = await r.sweep(ctx.database.kind === 'pglite' ? 0 : leaseMs);
    if (resumed > 0) ctx.log.info({ sessions: resumed }, 'resuming agent sessions');
    sweepTimer = setInterval(
      () => {
        r.sweep(leaseMs).catch((err: unknown) => {
          ctx.log.warn({ err: (err as Error).message }, 'session sweep failed');
        });
      },
      Math.max(1000, Math.floor(leaseMs / 2)),
    );
    sweepTimer.unref();
  }
  await bus.ready();
  // Workflows whose step's session moved on while no process was listening catch up now.
  await workflows.engine.reconcile().catch((err: unknown) => {
    ctx.log.warn({ err: (err as Error).message }, 'workflow reconciliation failed');
  });

  let hub: WsHub | undefined;
  let stopped = false;
  const datasetRemovalHandlers: Array<(datasetId: string) => Promise<void>> = [];

  const runtime: AgentRuntime = {
    queueState: () => queue.state(),
    queueDepth: () => queue.depth(),
    socketClients: () => hub?.clientCount() ?? 0,
    async accessRevoked(userId) {
      // This process at once, before the request that changed the access is answered.
      ctx.activeUsers.invalidate(userId);
      await announceAccessRevoked(bus, hub, userId).catch((err: unknown) => {
        ctx.log.warn(
          { err: (err as Error).message, userId },
          'could not announce a revocation; open sockets close at the next heartbeat',
        );
      });
    },
    teams: () => registry.teams().map((t) => registry.teamInfo(t)),
    sessions,
    models,
    async datasetRemoved(datasetId) {
      for (const handler of datasetRemovalHandlers) {
        await handler(datasetId).catch((err: unknown) => {
          ctx.log.warn({ err: (err as Error).message, datasetId }, 'dataset removal hook failed');
        });
      }
    },
    async registerRoutes(app) {
      hub = createWsHub(core, sessions, {
        heartbeatMs: settings.wsHeartbeatSeconds * 1000,
        maxBufferedBytes: settings.wsMaxBufferedBytes,
      });
      await hub.register(app);
      await bus.ready();
      registerAgentRoutes(app, core, sessions);
      workflows.registerRoutes(app);
      for (const team of registry.teams()) {
        const teamRoutes = team.routes;
        if (!teamRoutes) continue;
        // Each team's routes are a plugin under its spec prefix (encapsulated: its hooks and
        // decorators stay inside).
        await app.register(
          async (scoped) => {
            await teamRoutes.register(scoped, {
              sessions,
              services,
              workspaceFor: (userId, projectId) => createWorkspace(ctx, { userId, projectId }),
              modelAvailability: (userId) => models.availability(userId),
              catalog: {
                onDatasetRemoved: (handler) => datasetRemovalHandlers.push(handler),
                existingDatasetIds: (ids) => ctx.modules.datasets.existingIds(ids),
              },
              downloadToken: async (request, path) => {
                const ttl = ctx.config.auth.downloadTokenTtlSeconds;
                const token = await issueDownloadToken(ctx.signer, request, path, ttl);
                return { token, expiresInSeconds: ttl };
              },
            });
          },
          { prefix: teamRoutes.prefix },
        );
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (sweepTimer) clearInterval(sweepTimer);
      await workflows.engine.stop();
      await queue.stopWorkers();
      await runner?.stop();
      // The last updates of the phases just stopped reach this process's sockets too.
      await bus.flush();
      await hub?.close();
      await queue.stop();
      unsubscribeAccess();
      unsubscribeReconnect();
      await bus.close();
      await services.close();
    },
  };
  return runtime;
}
