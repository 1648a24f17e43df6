import type { Api } from '../../platform/api';
import type { RuntimeCore } from '../runtime/runtime-core';
import type { SessionService } from '../runtime/types';
import { createWorkflowEngine, type WorkflowEngine } from './engine';
import { registerWorkflowRoutes } from './routes';
import { createWorkflowService, type WorkflowService } from './service';

/** Customized workflows: the engine that runs them, their service (rights) and their routes. */
export interface Workflows {
  engine: WorkflowEngine;
  service: WorkflowService;
  registerRoutes(app: Api): void;
}

export function createWorkflows(
  core: RuntimeCore,
  sessions: SessionService,
  opts: { reconcileEveryMs: number; missingSessionGraceMs: number },
): Workflows {
  const engine = createWorkflowEngine(core, sessions, opts);
  const service = createWorkflowService(core, engine);
  return { engine, service, registerRoutes: (app) => registerWorkflowRoutes(app, service) };
}
