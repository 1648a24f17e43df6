import { closeContext, createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';

/** A worker-only process for the scale-out mode: runs agent phase jobs, serves no HTTP. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(
      'npm run worker needs DATABASE_URL (PostgreSQL). In the embedded mode the worker runs inside npm start.',
    );
  }
  const ctx = await createContext(config, { worker: true });
  ctx.log.info('EconAgents worker started');
  const shutdown = async () => {
    await closeContext(ctx);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
