import { z } from 'zod';
import {
  agentListReplySchema,
  agentReplySchema,
  agentTeamsReplySchema,
  executeRequestSchema,
  executionListQuerySchema,
  executionListReplySchema,
  executionReplySchema,
  feedbackRequestSchema,
  logsQuerySchema,
  logsReplySchema,
  metricsReplySchema,
  sessionActionReplySchema,
  sessionListQuerySchema,
  sessionListReplySchema,
  sessionStatusReplySchema,
  startSessionRequestSchema,
  type AgentSession,
  type Execution,
  type MetricsGroup,
} from '../../../common/agents';
import type { Api } from '../../context';
import { currentUser } from '../../platform/access';
import { notFound } from '../../platform/errors';
import type { RuntimeCore } from './runtime-core';
import type { SessionService } from './service';
import type { MetricsCountRow, MetricsDurationRow } from './store';

const sessionParams = z.object({ id: z.string() });
const agentParams = z.object({ id: z.string().min(1).max(200) });
const logsParams = z.object({ sessionId: z.string() });

function actionReply(session: AgentSession) {
  return {
    success: true as const,
    sessionId: session.sessionId,
    status: session.status,
    phase: session.phase,
    session,
  };
}

function toExecution(s: AgentSession): Execution {
  const durationMs =
    s.startedAt && s.completedAt
      ? new Date(s.completedAt).getTime() - new Date(s.startedAt).getTime()
      : null;
  return {
    executionId: s.sessionId,
    sessionId: s.sessionId,
    agentId: s.agentId,
    teamId: s.teamId,
    projectId: s.projectId,
    status: s.status,
    phase: s.phase,
    totalPhases: s.totalPhases,
    checkpoint: s.checkpoint,
    paused: s.paused,
    error: s.error,
    usage: s.usage,
    createdAt: s.createdAt,
    startedAt: s.startedAt,
    completedAt: s.completedAt,
    durationMs,
  };
}

function metricsGroups(
  counts: MetricsCountRow[],
  durations: MetricsDurationRow[],
  level: 'total' | 'team' | 'agent',
): MetricsGroup[] {
  const groups = new Map<string, MetricsGroup>();
  for (const row of counts) {
    const key =
      level === 'total' ? '' : level === 'team' ? row.teamId : (row.agentId ?? row.teamId);
    const g = groups.get(key) ?? {
      key: level === 'total' ? 'all' : key,
      executions: 0,
      byStatus: {},
      durationP50Ms: null,
      durationP95Ms: null,
      totalTokens: 0,
      costUsd: 0,
    };
    g.executions += row.executions;
    g.byStatus[row.status] = (g.byStatus[row.status] ?? 0) + row.executions;
    g.totalTokens += row.totalTokens;
    g.costUsd += row.costUsd;
    groups.set(key, g);
  }
  for (const d of durations) {
    if (d.level !== level) continue;
    const g = groups.get(level === 'total' ? '' : d.key);
    if (g) {
      g.durationP50Ms = d.p50;
      g.durationP95Ms = d.p95;
    }
  }
  return [...groups.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** The generic session endpoints every team screen shares, and the version 2 agents API. */
export function registerAgentRoutes(app: Api, core: RuntimeCore, sessions: SessionService): void {
  const user = { config: { access: 'user' as const } };

  app.get(
    '/api/agents/teams',
    { ...user, schema: { response: { 200: agentTeamsReplySchema } } },
    async (request) => {
      const me = currentUser(request);
      const llm = await core.models.availability(me.id);
      const queue = core.queue.state();
      return {
        success: true as const,
        status: queue === 'down' ? ('degraded' as const) : ('ok' as const),
        queue: { state: queue },
        llm: {
          configured: llm.configured,
          provider: llm.provider,
          model: llm.model,
          ...(llm.hint ? { hint: llm.hint } : {}),
        },
        teams: core.registry.teams().map((t) => core.registry.teamInfo(t)),
      };
    },
  );

  app.post(
    '/api/agents/sessions',
    {
      ...user,
      schema: { body: startSessionRequestSchema, response: { 201: sessionActionReplySchema } },
    },
    async (request, reply) => {
      const session = await sessions.start(currentUser(request), request.body);
      return reply.status(201).send(actionReply(session));
    },
  );

  app.get(
    '/api/agents/sessions',
    {
      ...user,
      schema: { querystring: sessionListQuerySchema, response: { 200: sessionListReplySchema } },
    },
    async (request) => {
      const { limit, offset, ...filter } = request.query;
      const page = await sessions.list(currentUser(request), filter, { limit, offset });
      return { success: true as const, ...page, limit, offset };
    },
  );

  app.get(
    '/api/agents/sessions/:id',
    { ...user, schema: { params: sessionParams, response: { 200: sessionStatusReplySchema } } },
    async (request) => {
      const me = currentUser(request);
      const session = await sessions.get(me, request.params.id);
      const page = await sessions.logs(me, request.params.id);
      return { success: true as const, session, logs: page.logs };
    },
  );

  const logsHandler = async (
    me: ReturnType<typeof currentUser>,
    id: string,
    query: z.infer<typeof logsQuerySchema>,
  ) => {
    const page = await sessions.logs(me, id, query);
    return { success: true as const, sessionId: id, ...page };
  };

  app.get(
    '/api/agents/sessions/:id/logs',
    {
      ...user,
      schema: {
        params: sessionParams,
        querystring: logsQuerySchema,
        response: { 200: logsReplySchema },
      },
    },
    async (request) => logsHandler(currentUser(request), request.params.id, request.query),
  );

  app.post(
    '/api/agents/sessions/:id/feedback',
    {
      ...user,
      schema: {
        params: sessionParams,
        body: feedbackRequestSchema,
        response: { 200: sessionActionReplySchema },
      },
    },
    async (request) =>
      actionReply(
        await sessions.feedback(currentUser(request), request.params.id, request.body.feedback),
      ),
  );

  const simpleActions = ['reset', 'cancel', 'pause', 'resume'] as const;
  for (const action of simpleActions) {
    app.post(
      `/api/agents/sessions/:id/${action}`,
      { ...user, schema: { params: sessionParams, response: { 200: sessionActionReplySchema } } },
      async (request) =>
        actionReply(await sessions[action](currentUser(request), request.params.id)),
    );
  }

  // ---- Version 2 -----------------------------------------------------------------------------

  app.get(
    '/api/v2/agents',
    { ...user, schema: { response: { 200: agentListReplySchema } } },
    async () => ({ success: true as const, agents: core.registry.agentInfos() }),
  );

  app.get(
    '/api/v2/agents/executions',
    {
      ...user,
      schema: {
        querystring: executionListQuerySchema,
        response: { 200: executionListReplySchema },
      },
    },
    async (request) => {
      const { limit, offset, team, teamId, ...rest } = request.query;
      const page = await sessions.list(
        currentUser(request),
        { ...rest, teamId: team ?? teamId },
        { limit, offset },
      );
      return {
        success: true as const,
        executions: page.sessions.map(toExecution),
        total: page.total,
        limit,
        offset,
      };
    },
  );

  app.get(
    '/api/v2/agents/executions/:id',
    { ...user, schema: { params: sessionParams, response: { 200: executionReplySchema } } },
    async (request) => ({
      success: true as const,
      execution: toExecution(await sessions.get(currentUser(request), request.params.id)),
    }),
  );

  app.post(
    '/api/v2/agents/executions/:id/cancel',
    { ...user, schema: { params: sessionParams, response: { 200: executionReplySchema } } },
    async (request) => ({
      success: true as const,
      execution: toExecution(await sessions.cancel(currentUser(request), request.params.id)),
    }),
  );

  app.get(
    '/api/v2/agents/metrics',
    { ...user, schema: { response: { 200: metricsReplySchema } } },
    async (request) => {
      const me = currentUser(request);
      const ownerId = me.role === 'admin' ? undefined : me.id;
      const [counts, durations] = await Promise.all([
        core.store.metricsCounts(ownerId),
        core.store.metricsDurations(ownerId),
      ]);
      const total = metricsGroups(counts, durations, 'total')[0] ?? {
        key: 'all',
        executions: 0,
        byStatus: {},
        durationP50Ms: null,
        durationP95Ms: null,
        totalTokens: 0,
        costUsd: 0,
      };
      return {
        success: true as const,
        metrics: {
          scope: ownerId ? ('own' as const) : ('all' as const),
          total,
          byAgent: metricsGroups(counts, durations, 'agent'),
          byTeam: metricsGroups(counts, durations, 'team'),
        },
      };
    },
  );

  app.get(
    '/api/v2/agents/logs/:sessionId',
    {
      ...user,
      schema: {
        params: logsParams,
        querystring: logsQuerySchema,
        response: { 200: logsReplySchema },
      },
    },
    async (request) => logsHandler(currentUser(request), request.params.sessionId, request.query),
  );

  app.get(
    '/api/v2/agents/:id',
    { ...user, schema: { params: agentParams, response: { 200: agentReplySchema } } },
    async (request) => {
      const agent = core.registry.agentInfo(request.params.id);
      if (!agent) throw notFound('Agent');
      return { success: true as const, agent };
    },
  );

  app.post(
    '/api/v2/agents/:id/execute',
    {
      ...user,
      schema: {
        params: agentParams,
        body: executeRequestSchema,
        response: { 201: executionReplySchema },
      },
    },
    async (request, reply) => {
      const found = core.registry.agent(request.params.id);
      if (!found) throw notFound('Agent');
      const session = await sessions.start(currentUser(request), {
        teamId: found.team.id,
        agentId: found.agent.id,
        input: request.body.input,
        configuration: request.body.configuration,
        sessionId: request.body.sessionId,
        projectId: request.body.projectId,
      });
      return reply.status(201).send({ success: true as const, execution: toExecution(session) });
    },
  );
}
