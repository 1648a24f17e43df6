import { z } from 'zod';
import {
  createWorkflowRequestSchema,
  workflowListQuerySchema,
  workflowListReplySchema,
  workflowReplySchema,
} from '../../../common/workflows';
import type { Api } from '../../platform/api';
import { currentUser } from '../../platform/access';
import type { WorkflowService } from './service';

/** A workflow id in the path; anything else answers 404 like a workflow one may not see. */
const workflowParams = z.object({ id: z.string().max(100) });

/**
 * The Customized Workflow's routes: create, start, read, list by project and cancel. Rights are
 * the service's (edit rights on the project to create, start and cancel; readers read).
 */
export function registerWorkflowRoutes(app: Api, workflows: WorkflowService): void {
  const user = { access: 'user' as const };

  app.post(
    '/api/workflows',
    {
      config: user,
      schema: { body: createWorkflowRequestSchema, response: { 201: workflowReplySchema } },
    },
    async (request, reply) => {
      const workflow = await workflows.create(currentUser(request), request.body);
      return reply.status(201).send({ success: true as const, workflow });
    },
  );

  app.get(
    '/api/workflows',
    {
      config: user,
      schema: { querystring: workflowListQuerySchema, response: { 200: workflowListReplySchema } },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const page = await workflows.list(currentUser(request), request.query);
      return { success: true as const, ...page, limit, offset };
    },
  );

  app.get(
    '/api/workflows/:id',
    { config: user, schema: { params: workflowParams, response: { 200: workflowReplySchema } } },
    async (request) => ({
      success: true as const,
      workflow: await workflows.get(currentUser(request), request.params.id),
    }),
  );

  app.post(
    '/api/workflows/:id/start',
    { config: user, schema: { params: workflowParams, response: { 200: workflowReplySchema } } },
    async (request) => ({
      success: true as const,
      workflow: await workflows.start(currentUser(request), request.params.id),
    }),
  );

  app.post(
    '/api/workflows/:id/cancel',
    { config: user, schema: { params: workflowParams, response: { 200: workflowReplySchema } } },
    async (request) => ({
      success: true as const,
      workflow: await workflows.cancel(currentUser(request), request.params.id),
    }),
  );
}
