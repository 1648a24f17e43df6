import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type DatabaseHandle } from './db/connect';
import { createAgentRuntime, type TeamDefinition } from './agents';
import { createMetrics } from './platform/metrics';
import { createMailer } from './platform/mailer';
import { loggerOptions } from './platform/logging';
import { protectDataDir } from './platform/data-dir';
import { registerStorageQuota } from './platform/storage-quota';
import { loadSecrets } from './platform/secrets';
import { TokenSigner } from './platform/tokens';
import { createActiveUserCache } from './platform/active-users';
import { readVersion } from './version';
import { createNotifier } from './modules/notifications/notify';
import { createUserLlmSettingsLoader } from './modules/settings/llm-settings';
import { createModuleServices } from './module-services';
import { createModelStatusService } from './agents/llm/model-status';

export function createLogger(config: Config): FastifyBaseLogger {
  const options = loggerOptions(config.logLevel);
  return (
    options === false ? pino({ level: 'silent' }) : pino(options as pino.LoggerOptions)
  ) as FastifyBaseLogger;
}

/**
 * Builds everything a process needs: logger, secrets, database (migrated), mailer and the agent
 * runtime. `worker` decides whether this process runs phase jobs.
 */
export async function createContext(
  config: Config,
  opts: {
    worker: boolean;
    database?: DatabaseHandle;
    log?: FastifyBaseLogger;
    /** Teams to run besides the product's (tests only). */
    extraTeams?: TeamDefinition[];
  },
): Promise<AppContext> {
  const log = opts.log ?? createLogger(config);
  // Before anything is written: DATA_DIR and all in it (database files, secrets, uploads) are
  // readable by this account only.
  protectDataDir(config.dataDir, log, { create: config.databaseUrl === undefined });
  const secrets = loadSecrets({
    dataDir: config.dataDir,
    jwtSecret: config.auth.jwtSecret,
    encryptionKey: config.encryptionKey,
  });
  const database =
    opts.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  registerStorageQuota(database.db, config.limits.storageQuotaBytes);
  const base = {
    config,
    database,
    db: database.db,
    secrets,
    signer: new TokenSigner(secrets.jwtSecret),
    activeUsers: createActiveUserCache(database.db),
    mailer: createMailer({
      db: database.db,
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
      log,
    }),
    log,
    metrics: config.metrics.enabled ? createMetrics() : null,
    startedAt: new Date(),
    version: readVersion(),
    notify: createNotifier(database.db),
    loadUserLlmSettings: createUserLlmSettingsLoader(database.db, secrets),
    modelStatus: createModelStatusService({ config, db: database.db, log }),
    modules: createModuleServices(database.db, secrets),
  };
  const agents = await createAgentRuntime(base, {
    worker: opts.worker,
    extraTeams: opts.extraTeams,
  });
  return { ...base, agents };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.agents.stop();
  await ctx.database.close();
}
