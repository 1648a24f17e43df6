import { z } from 'zod';
import type {
  CreateWorkflowRequest,
  Workflow,
  WorkflowStep,
  createWorkflowRequestSchema,
  workflowListQuerySchema,
} from '../../../common/workflows';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import type { RuntimeCore } from '../runtime/runtime-core';
import type { SessionActor } from '../runtime/types';
import { adapterOf } from './adapters';
import type { WorkflowEngine } from './engine';
import { describeWorkflow } from '../../db/workflow-view';

export type { CreateWorkflowRequest };
type CreateInput = z.output<typeof createWorkflowRequestSchema>;
type ListInput = z.output<typeof workflowListQuerySchema>;

/**
 * Workflow operations with the project's rights inside: creating, starting and cancelling need
 * edit rights on the project (owner or collaborator, never an account with the viewer role);
 * anyone who may read the project reads its workflows; everybody else gets 404.
 */
export interface WorkflowService {
  create(actor: SessionActor, body: CreateInput): Promise<Workflow>;
  start(actor: SessionActor, id: string): Promise<Workflow>;
  get(actor: SessionActor, id: string): Promise<Workflow>;
  list(actor: SessionActor, query: ListInput): Promise<{ workflows: Workflow[]; total: number }>;
  cancel(actor: SessionActor, id: string): Promise<Workflow>;
}

/** A 400 naming the step and the field zod refused. */
function invalidStepConfig(index: number, label: string, error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = ['config', ...(issue?.path ?? []).map(String)].join('.');
  return badRequest(
    `steps.${index}.${field} (step ${index + 1}, ${label}): ${issue?.message ?? 'invalid'}`,
  );
}

export function createWorkflowService(core: RuntimeCore, engine: WorkflowEngine): WorkflowService {
  const { store } = engine;

  async function rights(actor: SessionActor, projectId: string) {
    const perms = await core.app.modules.projects.permissions(actor, projectId);
    if (!perms) throw notFound('Project');
    return perms;
  }

  function mustEdit(perms: { canEdit: boolean }): void {
    if (!perms.canEdit) {
      throw forbidden(
        'You can read this project but not run workflows in it; ask its owner to make you a collaborator',
      );
    }
  }

  /** The workflow if the actor may read its project; 404 otherwise. */
  async function visible(actor: SessionActor, id: string) {
    if (!z.uuid().safeParse(id).success) throw notFound('Workflow');
    const row = await store.get(id);
    if (!row) throw notFound('Workflow');
    const perms = await core.app.modules.projects.permissions(actor, row.projectId);
    if (!perms) throw notFound('Workflow');
    return { row, perms };
  }

  return {
    async create(actor, body) {
      if (actor.role === 'viewer') {
        throw forbidden(
          'Viewers cannot run agent teams; ask an administrator for the researcher role',
        );
      }
      mustEdit(await rights(actor, body.projectId));
      const teams = core.registry.teams();
      const steps: WorkflowStep[] = body.steps.map((s, index) => {
        const team = core.registry.team(s.team);
        if (!team) {
          throw badRequest(
            `steps.${index}.team: unknown team '${s.team}'; the teams are ${teams.map((t) => t.id).join(', ')}`,
          );
        }
        const parsed = adapterOf(team).config.safeParse(s.config);
        if (!parsed.success) throw invalidStepConfig(index, team.label, parsed.error);
        return {
          index,
          team: team.id,
          config: parsed.data,
          status: 'pending',
          sessionId: null,
          inputs: [],
          outputs: [],
          error: null,
          startedAt: null,
          completedAt: null,
        };
      });
      const row = await store.insert({
        projectId: body.projectId,
        ownerId: actor.id,
        name: body.name,
        steps,
      });
      return describeWorkflow(row);
    },

    async start(actor, id) {
      const { row, perms } = await visible(actor, id);
      mustEdit(perms);
      if (row.status !== 'idle') {
        throw conflict(
          `Only a workflow that has not run can be started; this one is ${row.status.replace(/_/g, ' ')}`,
        );
      }
      for (const step of row.steps) {
        const availability = core.registry.availability(step.team);
        if (!availability.available) {
          throw new AppError(
            'unavailable',
            `Step ${step.index + 1} cannot run: ${availability.reason ?? `the ${step.team} team is not available`}`,
          );
        }
      }
      try {
        return describeWorkflow(await engine.startStep(row, 0));
      } catch (err) {
        if (err instanceof AppError) {
          // The first step was refused (no model, the session limit, ...): the workflow stays as
          // it was so the researcher can fix that and start it again.
          const failed = await store.get(row.id);
          if (failed?.status === 'error' && failed.currentStep === 0) {
            await store.update(failed.id, failed.version, {
              status: 'idle',
              currentStep: null,
              currentSessionId: null,
              error: null,
              steps: row.steps,
              startedAt: null,
              completedAt: null,
            });
          }
          throw err;
        }
        throw badRequest(`Step 1 cannot start: ${(err as Error).message}`);
      }
    },

    async get(actor, id) {
      return describeWorkflow((await visible(actor, id)).row);
    },

    async list(actor, query) {
      await rights(actor, query.projectId);
      const { rows, total } = await store.listByProject(query.projectId, query);
      return { workflows: rows.map(describeWorkflow), total };
    },

    async cancel(actor, id) {
      const { row, perms } = await visible(actor, id);
      mustEdit(perms);
      if (
        row.status !== 'idle' &&
        row.status !== 'processing' &&
        row.status !== 'waiting_for_input'
      ) {
        throw conflict(
          `There is nothing to cancel: the workflow is ${row.status.replace(/_/g, ' ')}`,
        );
      }
      return describeWorkflow(await engine.cancel(row));
    },
  };
}
