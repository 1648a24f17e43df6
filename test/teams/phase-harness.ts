import crypto from 'node:crypto';
import type { FeedbackEntry } from '../../common/agents';
import { createServiceHost, type ServiceHost } from '../../server/platform/services';
import type { SessionProvenance } from '../../common/provenance';
import { createProvenanceRecorder } from '../../server/agents/kit/provenance';
import { createWorkspace } from '../../server/agents/kit/workspace';
import type {
  PhaseLog,
  PhaseRuntimeContext,
  TeamDefinition,
} from '../../server/agents/runtime/team';
import { createTestApp, createUser, type TestApp } from '../app';

/**
 * Runs one phase of any team directly, without HTTP, the job queue or a session row: the phase
 * gets the same context the runner gives it (a real workspace on a test database, the team's
 * services built from `env`, model calls through the real model layer), so a team's tests can
 * drive one phase against the scripted model server and fixture sources.
 *
 *   const h = await createPhaseHarness({ env: { ...llm env, OPENALEX_BASE_URL: fixture.url } });
 *   const { result, logs } = await h.run(team, 'search', { input: { ... }, results: { ... } });
 */
export interface PhaseRunOptions {
  input: Record<string, unknown>;
  configuration?: Record<string, unknown>;
  /** Results of earlier phases, by key (as stored). */
  results?: Record<string, unknown>;
  feedback?: FeedbackEntry[];
  revision?: { feedback: string; previousResult: unknown } | null;
  /** A project of the harness user to attach the run to. */
  projectId?: string | null;
  /** Who runs it; defaults to the harness's researcher. */
  userId?: string;
  /**
   * The session's provenance from earlier phases (e.g. the works they retrieved, which the
   * citation gate then accepts); defaults to none.
   */
  provenance?: SessionProvenance;
  signal?: AbortSignal;
}

export interface PhaseRun {
  /** The phase's return value after its schema's parse (what the runner would store). */
  result: unknown;
  logs: Array<{ level: 'info' | 'warn' | 'error'; message: string }>;
  /** What the checkpoint would show, when the phase has one. */
  checkpointData: unknown;
  /** The session's provenance after the phase, as the runner would store it. */
  provenance: SessionProvenance;
}

export interface PhaseHarness {
  app: TestApp;
  /** A researcher account (id and access token) that runs phases by default. */
  user: { id: string; accessToken: string };
  services: ServiceHost;
  run(team: TeamDefinition, key: string, opts: PhaseRunOptions): Promise<PhaseRun>;
  close(): Promise<void>;
}

export async function createPhaseHarness(
  opts: { env?: Record<string, string> } = {},
): Promise<PhaseHarness> {
  const app = await createTestApp(opts.env ?? {});
  const created = await createUser(app.app, { role: 'researcher' });
  const services = createServiceHost({
    env: app.ctx.config.env,
    dataDir: app.dataDir,
    log: app.ctx.log,
  });

  return {
    app,
    user: { id: created.id, accessToken: created.accessToken },
    services,
    async run(team, key, run) {
      const index = team.phases.findIndex((p) => p.key === key);
      const phase = team.phases[index];
      if (!phase) throw new Error(`Team ${team.id} has no phase ${key}`);
      const userId = run.userId ?? created.id;
      const signal = run.signal ?? new AbortController().signal;
      const logs: PhaseRun['logs'] = [];
      const log = (async (message: string) => {
        logs.push({ level: 'info', message });
      }) as PhaseLog;
      log.warn = async (message) => void logs.push({ level: 'warn', message });
      log.error = async (message) => void logs.push({ level: 'error', message });
      const input = team.inputSchema.parse(run.input);
      const configuration = team.configurationSchema
        ? team.configurationSchema.parse(run.configuration ?? {})
        : (run.configuration ?? {});
      const results = run.results ?? {};
      const sessionId = crypto.randomUUID();
      const provenance = createProvenanceRecorder(run.provenance ?? null, {
        key,
        startedAt: new Date().toISOString(),
      });
      const ctx: PhaseRuntimeContext = {
        session: {
          id: sessionId,
          teamId: team.id,
          agentId: null,
          ownerId: userId,
          projectId: run.projectId ?? null,
        },
        input,
        configuration,
        phase: { number: index + 1, key, name: phase.name, totalPhases: team.phases.length },
        log,
        llm: app.ctx.agents.models.forCall({ userId, agent: team.id, phase: key, signal }),
        workspace: createWorkspace(app.ctx, {
          userId,
          projectId: run.projectId ?? null,
          sessionId,
          teamId: team.id,
          provenance: () => provenance.running(),
        }),
        provenance,
        services,
        results,
        resultList: Object.entries(results).map(([k, result], i) => ({
          phase: i + 1,
          key: k,
          name: k,
          result,
          completedAt: new Date().toISOString(),
        })),
        feedback: run.feedback ?? [],
        revision: run.revision ?? null,
        signal,
      };
      const result: unknown = phase.result.parse(await phase.run(ctx));
      const checkpointData = phase.checkpoint
        ? (phase.checkpoint.data?.(result) ?? result)
        : undefined;
      return {
        result,
        logs,
        checkpointData,
        provenance: provenance.completed(new Date().toISOString()),
      };
    },
    async close() {
      await services.close();
      await app.close();
    },
  };
}
