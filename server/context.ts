import type { FastifyBaseLogger } from 'fastify';
import type { AgentRuntime } from './agents/runtime/types';
import type { Api } from './platform/api';
import type { Config } from './config';
import type { Database, DatabaseHandle } from './db/connect';
import type { Mailer } from './platform/mailer';
import type { Metrics } from './platform/metrics';
import type { Notify } from './platform/notify';
import type { LoadUserLlmSettings, ModelStatusService } from './platform/llm-settings';
import type { ModuleServices } from './module-services';
import type { Secrets } from './platform/secrets';
import type { TokenSigner } from './platform/tokens';
import type { ActiveUserCache } from './platform/active-users';

export type { Api };
export type { AgentRuntime };

/**
 * What buildApp is given and hands to every module. Modules build their own store and service
 * from it; nothing here knows about HTTP requests.
 */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  secrets: Secrets;
  signer: TokenSigner;
  /**
   * The active user behind each access token, kept per process; the agent runtime drops an entry
   * on every revocation announced on its bus (platform/active-users.ts).
   */
  activeUsers: ActiveUserCache;
  mailer: Mailer;
  log: FastifyBaseLogger;
  agents: AgentRuntime;
  /** Records an in-app notification for a user (notifications module). */
  notify: Notify;
  /** A user's model settings with the decrypted key (settings module). */
  loadUserLlmSettings: LoadUserLlmSettings;
  /** The model checks of Settings and the system status (the model layer, server/agents/llm). */
  modelStatus: ModelStatusService;
  /** The modules' services as the agent runtime uses them (projects, datasets, documents, settings). */
  modules: ModuleServices;
  /** Prometheus metrics when METRICS_ENABLED (the system module serves and feeds them). */
  metrics: Metrics | null;
  startedAt: Date;
  version: string;
}
