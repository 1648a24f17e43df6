import { closeContext, createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import type { TeamDefinition } from './agents';

export interface WorkerOptions {
  /** Teams to run besides the product's (the tests' internal team; never in production). */
  extraTeams?: TeamDefinition[];
}

/** A worker-only process for the scale-out mode: runs agent phase jobs, serves no HTTP. */
async function work(options: WorkerOptions): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(
      'npm run worker needs DATABASE_URL (PostgreSQL). In the embedded mode the worker runs inside npm start.',
    );
  }
  const ctx = await createContext(config, { worker: true, extraTeams: options.extraTeams });
  ctx.log.info('EconAgents worker started');
  const shutdown = async () => {
    await closeContext(ctx);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

/** Runs a worker; a failure to start prints why and exits 1. */
export function runWorker(options: WorkerOptions = {}): void {
  work(options).catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
