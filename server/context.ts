import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database, DatabaseHandle } from './db/connect';
import type { Mailer } from './platform/mailer';
import type { Notify } from './platform/notify';
import type { LoadUserLlmSettings } from './agents/llm/types';
import type { ModelLayer } from './agents/llm/model-layer';
import type { SessionService } from './agents/service';
import type { Secrets } from './platform/secrets';
import type { TokenSigner } from './platform/tokens';

/** The Fastify instance every module registers its routes on (zod schemas, typed replies). */
export type Api = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * The agent runtime as the rest of the server sees it (server/agents provides it): the job
 * queue's state, which teams can run, its routes and WebSocket channel, and a clean stop.
 */
export interface AgentRuntime {
  queueState(): 'up' | 'down' | 'not-started';
  isTeamAvailable(teamId: string): boolean;
  /** Registers the runtime's HTTP routes and the /ws channel. */
  registerRoutes(app: Api): Promise<void>;
  stop(): Promise<void>;
  /**
   * Session operations with the owner/admin checks inside (404 for others' sessions): what each
   * team's spec routes (e.g. /api/literature-team/start) call as thin adapters.
   */
  sessions: SessionService;
  /** The model layer every model call goes through (usage recorded per call). */
  models: ModelLayer;
}

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
  mailer: Mailer;
  log: FastifyBaseLogger;
  agents: AgentRuntime;
  /** Records an in-app notification for a user (notifications module). */
  notify: Notify;
  /** A user's model settings with the decrypted key (settings module). */
  loadUserLlmSettings: LoadUserLlmSettings;
  startedAt: Date;
  version: string;
}
