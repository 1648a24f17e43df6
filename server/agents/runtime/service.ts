import { z } from 'zod';
import {
  APPROVAL_FEEDBACK,
  LOG_PAGE_MAX,
  type AgentSession,
  type FeedbackEntry,
  type LogEntry,
  type SessionStatus,
} from '../../../common/agents';
import { teamNoun } from '../../../common/text';
import type { AgentSessionRow, ArchivedRun } from '../../db/schema/agents';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import { CHANNELS, type ControlMessage, type RuntimeCore } from './runtime-core';
import { announceCompletion, completionPatch } from './session-completion';
import { publishLog, publishUpdate, startPhase, writeLog } from './session-events';
import { describeSession, machineState } from './session-view';
import { ModelNotConfiguredError } from '../llm/errors';
import { TransitionError, transition, type MachineEvent } from './state-machine';
import type { NewLogLine, SessionPatch } from './store';
import type { TeamDefinition } from './team';
import type { ListPage, LogsPage, SessionActor, SessionService, StartSessionInput } from './types';

export type { ListPage, LogsPage, SessionActor, SessionService, StartSessionInput };

const CANCELLED_TEXT = 'Cancelled by the user';
/** Attempts at a change that lost a race with another change (then 409). */
const RACE_ATTEMPTS = 3;

function isApproval(feedback: string): boolean {
  return feedback.trim().toLowerCase() === APPROVAL_FEEDBACK.toLowerCase();
}

/** A readable 400 naming the fields zod refused. */
function invalidInput(what: string, error: z.ZodError): AppError {
  const parts = error.issues.slice(0, 5).map((i) => {
    const field = i.path.map(String).join('.');
    return field && !i.message.toLowerCase().startsWith(field.toLowerCase())
      ? `${field}: ${i.message}`
      : i.message;
  });
  return new AppError('bad_request', `Invalid ${what}: ${parts.join('; ')}`);
}

export function createSessionService(core: RuntimeCore): SessionService {
  const { store, registry, limits } = core;

  /**
   * Who may do what with a session: its owner everything; an editor of its project (owner or
   * collaborator, never an account with the viewer role) drives it as well (feedback, approve,
   * pause, resume, reset) and cancels it; other members of the project read it; administrators
   * read and cancel any session but never drive another's (its later phases would run on the
   * owner's model key and budget). Everybody else gets 404.
   */
  async function access(
    actor: SessionActor,
    sessionId: string,
  ): Promise<{ row: AgentSessionRow; drive: boolean; cancel: boolean }> {
    if (!z.uuid().safeParse(sessionId).success) throw notFound('Session');
    const row = await store.get(sessionId);
    if (!row) throw notFound('Session');
    if (row.ownerId === actor.id) return { row, drive: true, cancel: true };
    const project = row.projectId
      ? await core.app.modules.projects.permissions(actor, row.projectId)
      : null;
    if (project?.canEdit) return { row, drive: true, cancel: true };
    if (actor.role === 'admin') return { row, drive: false, cancel: true };
    if (project) return { row, drive: false, cancel: false };
    throw notFound('Session');
  }

  async function visible(actor: SessionActor, sessionId: string): Promise<AgentSessionRow> {
    return (await access(actor, sessionId)).row;
  }

  /** The session, if the actor may drive it (or, for `cancel`, cancel it); 403 for readers. */
  async function controllable(
    actor: SessionActor,
    sessionId: string,
    need: 'drive' | 'cancel',
  ): Promise<AgentSessionRow> {
    const found = await access(actor, sessionId);
    if (!found[need]) {
      throw forbidden(
        need === 'cancel'
          ? "Only the session's owner, an editor of its project or an administrator can cancel it"
          : "Only the session's owner or an editor of its project can answer, pause, resume or reset it",
      );
    }
    return found.row;
  }

  function teamOf(row: AgentSessionRow): TeamDefinition {
    const team = registry.team(row.teamId);
    if (!team) {
      throw new AppError('unavailable', `The ${row.teamId} team is not available on this server`);
    }
    return team;
  }

  function activeLimitError(active: number): AppError {
    return conflict(
      `You already have ${active} active agent sessions (running or waiting for your feedback); ` +
        `the limit is ${limits.maxConcurrentSessions}. Finish, cancel or reset one before starting another.`,
    );
  }

  async function signalRunner(sessionId: string, reason: ControlMessage['reason']): Promise<void> {
    try {
      await core.bus.publish(CHANNELS.control, { sessionId, reason } satisfies ControlMessage);
    } catch (err) {
      // The runner also notices at its next lease renewal that the session moved on.
      core.app.log.warn({ err: (err as Error).message, sessionId }, 'could not signal runner');
    }
  }

  /**
   * Applies one state-machine event with its extra changes, retrying if another change won the
   * race for the row. `build` sees the fresh row and the new state.
   */
  async function apply(
    actor: SessionActor,
    sessionId: string,
    event: MachineEvent,
    build: (
      row: AgentSessionRow,
      next: ReturnType<typeof transition>,
      team: TeamDefinition,
    ) => SessionPatch,
    opts: {
      countsAsNewActive?: boolean;
      /** The log line after the change, written in its statement (and returned, to publish). */
      line?: (
        row: AgentSessionRow,
        next: ReturnType<typeof transition>,
        team: TeamDefinition,
      ) => NewLogLine;
    } = {},
  ): Promise<{
    before: AgentSessionRow;
    after: AgentSessionRow;
    runPhase: boolean;
    logs: LogEntry[];
  }> {
    for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt++) {
      const row = await controllable(
        actor,
        sessionId,
        event.type === 'cancel' ? 'cancel' : 'drive',
      );
      const team = teamOf(row);
      let next: ReturnType<typeof transition>;
      try {
        next = transition(machineState(row), event, registry.planShape(team, row.plan));
      } catch (err) {
        if (err instanceof TransitionError) throw conflict(err.message);
        throw err;
      }
      const patch = {
        ...build(row, next, team),
        status: next.state.status,
        phase: next.state.phase,
        checkpoint: next.state.checkpoint,
        paused: next.state.paused,
      };
      const lines = opts.line ? [opts.line(row, next, team)] : [];
      const written = opts.countsAsNewActive
        ? await store.withOwnerLock(row.ownerId, async (active, tx) => {
            if (active >= limits.maxConcurrentSessions) throw activeLimitError(active);
            return tx.updateWithLogs(row.id, { step: row.step }, patch, lines);
          })
        : await store.updateWithLogs(row.id, { step: row.step }, patch, lines);
      if (written) {
        return { before: row, after: written.row, runPhase: next.runPhase, logs: written.logs };
      }
    }
    throw conflict('The session changed at the same time; reload it and try again');
  }

  async function start(actor: SessionActor, request: StartSessionInput): Promise<AgentSession> {
    if (actor.role === 'viewer') {
      throw forbidden(
        'Viewers cannot start agent teams; ask an administrator for the researcher role',
      );
    }
    let team: TeamDefinition | undefined;
    let plan: string[];
    let inputSchema: z.ZodType<Record<string, unknown>>;
    if (request.agentId) {
      const found = registry.agent(request.agentId);
      if (!found) throw notFound('Agent');
      team = found.team;
      plan = found.agent.phases ?? team.phases.map((p) => p.key);
      inputSchema = found.agent.inputSchema ?? team.inputSchema;
    } else {
      team = registry.team(request.teamId);
      if (!team) throw notFound('Team');
      plan = team.phases.map((p) => p.key);
      inputSchema = team.inputSchema;
    }
    const availability = registry.availability(team.id);
    if (!availability.available) {
      throw new AppError(
        'unavailable',
        availability.reason ?? `The ${teamNoun(team.name)} cannot run on this server right now`,
      );
    }
    const input = inputSchema.safeParse(request.input ?? {});
    if (!input.success) throw invalidInput('input', input.error);
    const configuration = (team.configurationSchema ?? z.record(z.string(), z.unknown())).safeParse(
      request.configuration ?? {},
    );
    if (!configuration.success) throw invalidInput('configuration', configuration.error);
    // A plan with a step that needs a model fails now, with the configure-a-model message,
    // rather than after the steps before it have run.
    if (registry.phasesOf(team, plan).some((p) => p.requiresModel)) {
      try {
        await core.models.ensureAvailable(actor.id);
      } catch (err) {
        if (err instanceof ModelNotConfiguredError)
          throw new AppError('unprocessable', err.message);
        throw err;
      }
    }

    if (request.projectId) {
      // The session writes into the project (documents, results): it needs edit rights there,
      // the same rule as editing the project. Readers (project viewers, admins who are not
      // members) may start a session without the project.
      const perms = await core.app.modules.projects.permissions(actor, request.projectId);
      if (!perms) throw notFound('Project');
      if (!perms.canEdit) {
        throw forbidden(
          'You can read this project but not start sessions in it; ask its owner to make you a collaborator',
        );
      }
    }

    const now = new Date();
    const budget = limits.sessionTokenBudget > 0 ? limits.sessionTokenBudget : null;
    const fields = {
      teamId: team.id,
      agentId: request.agentId ?? null,
      projectId: request.projectId ?? null,
      input: input.data,
      configuration: configuration.data,
      plan,
      status: 'processing' as const,
      phase: 1,
      checkpoint: null,
      checkpointData: null,
      results: [],
      feedback: [],
      finalOutputs: null,
      error: null,
      paused: false,
      tokenBudget: budget,
      startedAt: now,
      completedAt: null,
    };

    const phases = registry.phasesOf(team, plan);
    const checkpoints = phases.filter((p) => p.checkpoint).length;
    // The session's first line is written with it, in the same statement.
    const firstLine = {
      level: 'info' as const,
      message:
        `Started ${team.name} session: ${phases.length} ${phases.length === 1 ? 'phase' : 'phases'}` +
        (checkpoints > 0
          ? `, ${checkpoints} ${checkpoints === 1 ? 'checkpoint' : 'checkpoints'} for your review`
          : ''),
    };
    let written: { row: AgentSessionRow; logs: LogEntry[] };
    if (request.sessionId) {
      const existing = await visible(actor, request.sessionId);
      if (existing.ownerId !== actor.id) throw notFound('Session');
      try {
        transition(machineState(existing), { type: 'start' }, registry.planShape(team, plan));
      } catch (err) {
        if (err instanceof TransitionError) throw conflict(err.message);
        throw err;
      }
      const updated = await store.withOwnerLock(actor.id, async (active, tx) => {
        if (active >= limits.maxConcurrentSessions) throw activeLimitError(active);
        return tx.updateWithLogs(existing.id, { step: existing.step }, fields, [firstLine]);
      });
      if (!updated) throw conflict('The session changed at the same time; reload it and try again');
      written = updated;
    } else {
      written = await store.withOwnerLock(actor.id, async (active, tx) => {
        if (active >= limits.maxConcurrentSessions) throw activeLimitError(active);
        return tx.insertWithLogs(
          {
            ...fields,
            ...(request.presetId ? { id: request.presetId } : {}),
            ownerId: actor.id,
            step: 1,
          },
          [firstLine],
        );
      });
    }
    const row = written.row;
    publishLog(core, row, written.logs[0]);
    await startPhase(core, row);
    return describeSession(core, row);
  }

  async function feedback(
    actor: SessionActor,
    sessionId: string,
    text: string,
  ): Promise<AgentSession> {
    const trimmed = text.trim();
    if (!trimmed) throw new AppError('bad_request', 'feedback must not be blank');
    const approved = isApproval(trimmed);
    const { after, runPhase, logs } = await apply(
      actor,
      sessionId,
      { type: 'feedback', approved },
      (row, next, team) => {
        const entry: FeedbackEntry = {
          phase: row.phase,
          checkpoint: row.checkpoint ?? 0,
          feedback: approved ? APPROVAL_FEEDBACK : trimmed,
          approved,
          submittedAt: new Date().toISOString(),
        };
        const patch: SessionPatch = {
          feedback: [...row.feedback, entry],
          checkpointData: null,
        };
        return next.state.status === 'completed'
          ? { ...patch, ...completionPatch(team, row.results) }
          : patch;
      },
      {
        // Written with the feedback, published after its update.
        line: (row, next, team) => {
          const checkpoint = row.checkpoint ?? 0;
          if (approved) return { level: 'info', message: `Checkpoint ${checkpoint} approved` };
          const phaseName = registry.phasesOf(team, row.plan)[next.state.phase - 1]?.name ?? '';
          return {
            level: 'info',
            message:
              `Feedback received at checkpoint ${checkpoint} (${trimmed.length} characters); ` +
              `running phase ${next.state.phase} (${phaseName}) again with it`,
          };
        },
      },
    );
    const entry = after.feedback[after.feedback.length - 1]!;
    publishUpdate(core, after, { updateType: 'feedback_submitted', data: entry });
    publishLog(core, after, logs[0]);
    if (after.status === 'completed') await announceCompletion(core, after);
    if (runPhase) await startPhase(core, after);
    return describeSession(core, after);
  }

  async function reset(actor: SessionActor, sessionId: string): Promise<AgentSession> {
    const { before, after } = await apply(actor, sessionId, { type: 'reset' }, (row) => {
      const ran = row.phase > 0 || row.results.length > 0 || row.feedback.length > 0;
      const archived: ArchivedRun[] = ran
        ? [
            ...row.history,
            {
              resetAt: new Date().toISOString(),
              status: row.status,
              phase: row.phase,
              input: row.input,
              configuration: row.configuration,
              results: row.results,
              feedback: row.feedback,
              finalOutputs: row.finalOutputs ?? null,
              error: row.error,
            },
          ]
        : row.history;
      return {
        history: archived,
        checkpointData: null,
        results: [],
        feedback: [],
        finalOutputs: null,
        provenance: null,
        error: null,
        startedAt: null,
        completedAt: null,
        leaseOwner: null,
        leaseUntil: null,
        attempts: 0,
      };
    });
    if (before.status === 'processing') await signalRunner(after.id, 'reset');
    await writeLog(
      core,
      after,
      before.phase > 0
        ? `Session reset (it was ${describeStatus(before.status, before.paused)} at phase ${before.phase}); the earlier run is kept in the session history`
        : 'Session reset',
    );
    return describeSession(core, after);
  }

  async function cancel(actor: SessionActor, sessionId: string): Promise<AgentSession> {
    const { before, after } = await apply(actor, sessionId, { type: 'cancel' }, () => ({
      error: CANCELLED_TEXT,
      completedAt: new Date(),
      checkpointData: null,
      leaseOwner: null,
      leaseUntil: null,
    }));
    if (before.status === 'processing') await signalRunner(after.id, 'cancel');
    await writeLog(core, after, `Cancelled by the user during phase ${before.phase}`, 'warn');
    publishUpdate(core, after, {
      updateType: 'error',
      data: { error: CANCELLED_TEXT, phase: after.phase },
    });
    return describeSession(core, after);
  }

  async function pause(actor: SessionActor, sessionId: string): Promise<AgentSession> {
    const { after } = await apply(actor, sessionId, { type: 'pause' }, () => ({
      leaseOwner: null,
      leaseUntil: null,
    }));
    await signalRunner(after.id, 'pause');
    await writeLog(
      core,
      after,
      `Paused by the user during phase ${after.phase}; the phase runs again from its start on resume`,
    );
    return describeSession(core, after);
  }

  async function resume(actor: SessionActor, sessionId: string): Promise<AgentSession> {
    const { after, logs } = await apply(
      actor,
      sessionId,
      { type: 'resume' },
      () => ({ leaseOwner: null, leaseUntil: null, attempts: 0 }),
      {
        countsAsNewActive: true,
        line: (_row, next) => ({ level: 'info', message: `Resumed at phase ${next.state.phase}` }),
      },
    );
    publishLog(core, after, logs[0]);
    await startPhase(core, after);
    return describeSession(core, after);
  }

  return {
    start,
    async get(actor, sessionId) {
      return describeSession(core, await visible(actor, sessionId));
    },
    async logs(actor, sessionId, opts = {}) {
      const row = await visible(actor, sessionId);
      const limit = Math.min(opts.limit ?? LOG_PAGE_MAX, LOG_PAGE_MAX);
      // One more than asked tells whether more lines follow.
      const entries = await store.readLogs(row.id, { after: opts.after, limit: limit + 1 });
      const hasMore = entries.length > limit;
      const page = hasMore ? entries.slice(0, limit) : entries;
      return {
        entries: page,
        logs: page.map((e) => e.message),
        cursor: page.length > 0 ? page[page.length - 1]!.seq : (opts.after ?? 0),
        hasMore,
      };
    },
    async list(actor, filter, page) {
      // Administrators list every session; members of a project every session of that project,
      // which the list's one statement checks itself (docs/performance.md, API reads).
      const { rows, total } = await store.list(
        filter,
        page,
        actor.role === 'admin' ? undefined : actor.id,
      );
      return { sessions: rows.map((r) => describeSession(core, r)), total };
    },
    feedback,
    reset,
    cancel,
    pause,
    resume,
    control(actor, sessionId, action) {
      if (action === 'cancel') return cancel(actor, sessionId);
      if (action === 'pause') return pause(actor, sessionId);
      return resume(actor, sessionId);
    },
    async canSee(actor, sessionId) {
      try {
        await visible(actor, sessionId);
        return true;
      } catch {
        return false;
      }
    },
  };
}

function describeStatus(status: SessionStatus, paused: boolean): string {
  if (status === 'idle' && paused) return 'paused';
  return status.replace(/_/g, ' ');
}
