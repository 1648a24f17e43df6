import { messageReplySchema, idParamSchema } from '../../../common/api';
import {
  addProjectMemberRequestSchema,
  createProjectRequestSchema,
  projectListQuerySchema,
  projectListReplySchema,
  projectMemberParamsSchema,
  projectMembersReplySchema,
  projectReplySchema,
  updateProjectRequestSchema,
} from '../../../common/projects';
import { projectRecordReplySchema } from '../../../common/research-record';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { createRecordService } from './record';
import { createRecordStore } from './record-store';
import { createProjectsService } from './service';
import { createProjectsStore } from './store';

export function projectsRoutes(app: Api, ctx: AppContext) {
  const service = createProjectsService(createProjectsStore(ctx.db));
  const user = { access: 'user' as const };

  app.get('/api/projects', {
    config: user,
    schema: { querystring: projectListQuerySchema, response: { 200: projectListReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: await service.list(currentUser(request), request.query),
    }),
  });

  app.post('/api/projects', {
    config: user,
    schema: { body: createProjectRequestSchema, response: { 201: projectReplySchema } },
    handler: async (request, reply) => {
      const project = await service.create(currentUser(request), request.body);
      return reply
        .status(201)
        .send({ success: true, message: 'Project created', data: { project } });
    },
  });

  app.get('/api/projects/:id', {
    config: user,
    schema: { params: idParamSchema, response: { 200: projectReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { project: await service.get(currentUser(request), request.params.id) },
    }),
  });

  const records = createRecordService({
    store: createRecordStore(ctx.db),
    projects: service,
    modules: ctx.modules,
  });
  app.get('/api/projects/:id/record', {
    config: user,
    schema: { params: idParamSchema, response: { 200: projectRecordReplySchema } },
    handler: async (request) => ({
      success: true as const,
      record: await records.record(currentUser(request), request.params.id, ctx.agents.teams()),
    }),
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/projects/:id',
      config: user,
      schema: {
        params: idParamSchema,
        body: updateProjectRequestSchema,
        response: { 200: projectReplySchema },
      },
      handler: async (request) => ({
        success: true as const,
        message: 'Project updated',
        data: {
          project: await service.update(currentUser(request), request.params.id, request.body),
        },
      }),
    });
  }

  app.delete('/api/projects/:id', {
    config: user,
    schema: { params: idParamSchema, response: { 200: messageReplySchema } },
    handler: async (request) => {
      await service.remove(currentUser(request), request.params.id);
      return { success: true as const, message: 'Project deleted' };
    },
  });

  for (const [method, favorite] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/api/projects/:id/favorite',
      config: user,
      schema: { params: idParamSchema, response: { 200: projectReplySchema } },
      handler: async (request) => ({
        success: true as const,
        message: favorite ? 'Added to favorites' : 'Removed from favorites',
        data: {
          project: await service.setFavorite(currentUser(request), request.params.id, favorite),
        },
      }),
    });
  }

  app.get('/api/projects/:id/members', {
    config: user,
    schema: { params: idParamSchema, response: { 200: projectMembersReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { members: await service.members(currentUser(request), request.params.id) },
    }),
  });

  app.post('/api/projects/:id/members', {
    config: user,
    schema: {
      params: idParamSchema,
      body: addProjectMemberRequestSchema,
      response: { 200: projectMembersReplySchema },
    },
    handler: async (request) => ({
      success: true as const,
      message: 'Member saved',
      data: {
        members: await service.addMember(currentUser(request), request.params.id, request.body),
      },
    }),
  });

  app.delete('/api/projects/:id/members/:userId', {
    config: user,
    schema: { params: projectMemberParamsSchema, response: { 200: projectMembersReplySchema } },
    handler: async (request) => ({
      success: true as const,
      message: 'Member removed',
      data: {
        members: await service.removeMember(
          currentUser(request),
          request.params.id,
          request.params.userId,
        ),
      },
    }),
  });
}
