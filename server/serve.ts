import { buildApp } from './app';
import { closeContext, createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './db/connect';
import { bootstrapAdmin } from './modules/users/bootstrap-admin';
import type { TeamDefinition } from './agents';

export interface ServeOptions {
  /** Teams to run besides the product's (the tests' internal team; never in production). */
  extraTeams?: TeamDefinition[];
}

/** One process: config -> database -> migrations -> admin -> app -> listen; clean shutdown. */
async function serve(options: ServeOptions): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, {
    worker: config.embeddedWorker,
    extraTeams: options.extraTeams,
  });
  await bootstrapAdmin(ctx.db, config.admin, ctx.log);
  const app = await buildApp(ctx);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'Shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await closeContext(ctx);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // The port actually bound: PORT=0 asks the system for a free one.
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  ctx.log.info(
    {
      database: ctx.database.kind,
      dataDir: config.databaseUrl === undefined ? config.dataDir : undefined,
    },
    `EconAgents ${ctx.version} listening on http://localhost:${port}`,
  );
}

/** Runs the server; a failure to start prints why and exits 1. */
export function runServer(options: ServeOptions = {}): void {
  serve(options).catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof DataDirInUseError) {
      console.error(err.message);
    } else {
      console.error('EconAgents failed to start:', err);
    }
    process.exit(1);
  });
}
