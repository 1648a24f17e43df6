import { randomUUID } from 'node:crypto';
import {
  SESSION_UPDATE_TYPES,
  type SessionUpdate,
  type SessionUpdateType,
} from '../../../common/agents';
import type { WorkflowHandoff, WorkflowStep } from '../../../common/workflows';
import type { WorkflowRow } from '../../db/schema/workflows';
import { loadActiveUser } from '../../platform/access';
import { AppError } from '../../platform/errors';
import { createWorkspace, type Workspace } from '../kit/workspace';
import { CHANNELS, type RuntimeCore, type UpdateEnvelope } from '../runtime/runtime-core';
import type { TeamDefinition, WorkflowStepStart } from '../runtime/team';
import type { SessionActor, SessionService } from '../runtime/types';
import { adapterOf, attributeInputs } from './adapters';
import { FOLLOWING, createWorkflowStore, type WorkflowPatch, type WorkflowStore } from './store';

/**
 * Runs customized workflows: starts each step's session (an ordinary session of its team, as the
 * workflow's owner, on its project), follows it, and when it completes takes what it hands on
 * and starts the next step.
 *
 * The database is the truth. Every change is a conditional update on the workflow's version, so
 * when several processes hear the same session event only one of them moves the workflow on; the
 * others find it already moved. A step's session id is chosen and written before the session is
 * started, so a process that dies in between leaves a workflow whose session is missing, which
 * the reconciliation starts again under the same id. Reconciliation (at start and every few
 * seconds) also catches up with sessions that finished while no process was listening.
 */

/** Session events after which the workflow of that session may have to move. */
const MOVING_UPDATES: ReadonlySet<SessionUpdateType> = new Set<SessionUpdateType>(
  SESSION_UPDATE_TYPES.filter((t) => t !== 'log_update' && t !== 'phase_completed'),
);
/** Attempts at a change that lost the race for the row. */
const RACE_ATTEMPTS = 5;

export interface WorkflowEngine {
  store: WorkflowStore;
  /** Starts step `index` of a workflow read at `row` (idle: index 0). Throws an AppError when refused. */
  startStep(row: WorkflowRow, index: number): Promise<WorkflowRow>;
  /** Brings a workflow in line with its current step's session. */
  advance(workflowId: string): Promise<void>;
  /** Advances every workflow that is out of step with its session; returns how many. */
  reconcile(): Promise<number>;
  /** Cancels a workflow (and its current step's session, as its owner). */
  cancel(row: WorkflowRow): Promise<WorkflowRow>;
  /** Stops listening and waits for the advances under way. */
  stop(): Promise<void>;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createWorkflowEngine(
  core: RuntimeCore,
  sessions: SessionService,
  opts: { reconcileEveryMs: number; missingSessionGraceMs: number },
): WorkflowEngine {
  const store = createWorkflowStore(core.app.db);
  const log = core.app.log;
  /** One advance at a time per workflow in this process (other processes: the version check). */
  const queues = new Map<string, Promise<void>>();

  function teamOf(teamId: string): TeamDefinition {
    const team = core.registry.team(teamId);
    if (!team) {
      throw new AppError('unavailable', `The ${teamId} team is not available on this server`);
    }
    return team;
  }

  function stepName(step: WorkflowStep): string {
    return `Step ${step.index + 1} (${core.registry.team(step.team)?.label ?? step.team})`;
  }

  function workspaceOf(row: WorkflowRow, teamId: string): Workspace {
    return createWorkspace(core.app, { userId: row.ownerId, projectId: row.projectId, teamId });
  }

  async function ownerActor(row: WorkflowRow): Promise<SessionActor> {
    const owner = await loadActiveUser(core.app.db, row.ownerId);
    if (!owner)
      throw new AppError('forbidden', 'The account that created this workflow is no longer active');
    return { id: owner.id, role: owner.role };
  }

  /** The session start of step `index`, fed by what the earlier steps handed on. */
  async function feed(
    row: WorkflowRow,
    index: number,
    handoff: WorkflowHandoff,
    steps: WorkflowStep[],
  ): Promise<WorkflowStepStart> {
    const step = steps[index]!;
    const start = await adapterOf(teamOf(step.team)).feed(
      step.config,
      handoff,
      workspaceOf(row, step.team),
    );
    return { ...start, inputs: attributeInputs(start.inputs, steps.slice(0, index)) };
  }

  function withStep(steps: WorkflowStep[], index: number, change: Partial<WorkflowStep>) {
    return steps.map((s) => (s.index === index ? { ...s, ...change } : s));
  }

  /** The patch that makes step `index` the running one with a new session id. */
  function runningPatch(
    row: WorkflowRow,
    index: number,
    start: WorkflowStepStart,
    extra: WorkflowPatch = {},
  ): WorkflowPatch {
    const sessionId = randomUUID();
    const steps = withStep(extra.steps ?? row.steps, index, {
      status: 'processing',
      sessionId,
      inputs: start.inputs,
      error: null,
      startedAt: new Date().toISOString(),
      completedAt: null,
    });
    return {
      ...extra,
      status: 'processing',
      currentStep: index,
      currentSessionId: sessionId,
      steps,
      error: null,
    };
  }

  function failurePatch(row: WorkflowRow, index: number, message: string): WorkflowPatch {
    const step = row.steps[index]!;
    const now = new Date();
    return {
      status: 'error',
      error: `${stepName(step)}: ${message}`,
      steps: withStep(row.steps, index, {
        status: 'error',
        error: message,
        completedAt: now.toISOString(),
      }),
      completedAt: now,
    };
  }

  /** Starts the session of the claimed step; a refusal fails the step (and is rethrown). */
  async function launch(row: WorkflowRow, start: WorkflowStepStart): Promise<void> {
    const index = row.currentStep!;
    const sessionId = row.currentSessionId!;
    const step = row.steps[index]!;
    try {
      await sessions.start(await ownerActor(row), {
        teamId: step.team,
        ...(start.agentId ? { agentId: start.agentId } : {}),
        input: start.input,
        ...(start.configuration ? { configuration: start.configuration } : {}),
        projectId: row.projectId,
        presetId: sessionId,
      });
    } catch (err) {
      // Started after all (another process relaunched it at the same moment): nothing to undo.
      if (await store.sessionExists(sessionId)) return;
      await failIfStill(row.id, index, sessionId, messageOf(err));
      throw err;
    }
  }

  /** Fails step `index` if the workflow is still following that step's session. */
  async function failIfStill(id: string, index: number, sessionId: string, message: string) {
    for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt++) {
      const row = await store.get(id);
      if (!row || !isFollowing(row) || row.currentSessionId !== sessionId) return;
      if (await store.update(row.id, row.version, failurePatch(row, index, message))) return;
    }
  }

  function isFollowing(row: WorkflowRow): boolean {
    return (FOLLOWING as readonly string[]).includes(row.status);
  }

  async function startStep(row: WorkflowRow, index: number): Promise<WorkflowRow> {
    const start = await feed(row, index, row.handoff, row.steps);
    const claimed = await store.update(
      row.id,
      row.version,
      runningPatch(
        row,
        index,
        start,
        index === 0 ? { startedAt: new Date(), completedAt: null } : {},
      ),
    );
    if (!claimed)
      throw new AppError(
        'conflict',
        'The workflow changed at the same time; reload it and try again',
      );
    await launch(claimed, start);
    return (await store.get(row.id)) ?? claimed;
  }

  /** One pass of bringing the workflow in line with its session; true when nothing is left to do. */
  async function advanceOnce(id: string): Promise<boolean> {
    const row = await store.get(id);
    if (!row || !isFollowing(row) || row.currentStep === null || !row.currentSessionId) return true;
    const index = row.currentStep;
    const step = row.steps[index]!;
    const session = await core.store.get(row.currentSessionId);

    if (!session) {
      // The session was never created: the process that chose its id died before starting it.
      if (Date.now() - row.updatedAt.getTime() < opts.missingSessionGraceMs) return true;
      log.info({ workflowId: id, step: index }, 'starting a workflow step whose start was lost');
      const start = await feed(row, index, row.handoff, row.steps);
      const touched = await store.update(row.id, row.version, {});
      if (!touched) return false;
      await launch(touched, start).catch(() => undefined);
      return true;
    }

    if (
      session.status === 'idle' ||
      session.status === 'processing' ||
      session.status === 'waiting_for_input'
    ) {
      const status = session.status === 'waiting_for_input' ? 'waiting_for_input' : 'processing';
      const stepStatus = session.status;
      if (row.status === status && step.status === stepStatus) return true;
      return Boolean(
        await store.update(row.id, row.version, {
          status,
          steps: withStep(row.steps, index, { status: stepStatus }),
        }),
      );
    }

    if (session.status === 'error') {
      return Boolean(
        await store.update(
          row.id,
          row.version,
          failurePatch(row, index, session.error ?? 'The session stopped with an error'),
        ),
      );
    }

    // Completed: take what it hands on, then start the next step or finish.
    const team = teamOf(step.team);
    const described = await sessions.get(await ownerActor(row), session.id);
    let harvest;
    try {
      harvest = await adapterOf(team).harvest(described, workspaceOf(row, step.team), step.config);
    } catch (err) {
      return Boolean(
        await store.update(row.id, row.version, failurePatch(row, index, messageOf(err))),
      );
    }
    const handoff: WorkflowHandoff = { ...row.handoff, ...harvest.handoff };
    const now = new Date();
    const steps = withStep(row.steps, index, {
      status: 'completed',
      outputs: harvest.outputs,
      completedAt: (session.completedAt ?? now).toISOString(),
    });
    const next = index + 1;
    if (next >= row.steps.length) {
      return Boolean(
        await store.update(row.id, row.version, {
          status: 'completed',
          currentStep: null,
          currentSessionId: null,
          steps,
          handoff,
          completedAt: now,
        }),
      );
    }
    let start: WorkflowStepStart;
    try {
      start = await feed(row, next, handoff, steps);
    } catch (err) {
      const failed = { ...row, steps, handoff };
      return Boolean(
        await store.update(row.id, row.version, {
          ...failurePatch(failed, next, messageOf(err)),
          handoff,
          currentStep: next,
          currentSessionId: null,
        }),
      );
    }
    const claimed = await store.update(
      row.id,
      row.version,
      runningPatch(row, next, start, { steps, handoff }),
    );
    if (!claimed) return false;
    await launch(claimed, start).catch((err: unknown) => {
      log.info(
        { workflowId: id, step: next, err: messageOf(err) },
        'a workflow step could not start',
      );
    });
    return true;
  }

  async function advanceNow(id: string): Promise<void> {
    for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt++) {
      if (await advanceOnce(id)) return;
    }
  }

  function advance(id: string): Promise<void> {
    const previous = queues.get(id) ?? Promise.resolve();
    const run = previous
      .then(() => advanceNow(id))
      .catch((err: unknown) => {
        log.warn({ workflowId: id, err: messageOf(err) }, 'could not advance a workflow');
      });
    queues.set(id, run);
    void run.finally(() => {
      if (queues.get(id) === run) queues.delete(id);
    });
    return run;
  }

  async function reconcile(): Promise<number> {
    const ids = await store.findOutOfStep(opts.missingSessionGraceMs);
    for (const id of ids) await advance(id);
    return ids.length;
  }

  async function cancel(row: WorkflowRow): Promise<WorkflowRow> {
    const index = row.currentStep;
    const now = new Date();
    const patch: WorkflowPatch = {
      status: 'cancelled',
      currentSessionId: null,
      completedAt: now,
      steps:
        index === null
          ? row.steps
          : withStep(row.steps, index, { status: 'cancelled', completedAt: now.toISOString() }),
    };
    const after = await store.update(row.id, row.version, patch);
    if (!after)
      throw new AppError(
        'conflict',
        'The workflow changed at the same time; reload it and try again',
      );
    if (row.currentSessionId) {
      try {
        await sessions.cancel(await ownerActor(row), row.currentSessionId);
      } catch (err) {
        // Already finished, or never started: nothing runs on.
        log.info(
          { workflowId: row.id, err: messageOf(err) },
          'workflow step session not cancelled',
        );
      }
    }
    return after;
  }

  const unsubscribe = core.bus.subscribe(CHANNELS.update, (payload) => {
    const update = (payload as Partial<UpdateEnvelope>).update as SessionUpdate | undefined;
    if (!update || !MOVING_UPDATES.has(update.updateType)) return;
    store
      .findBySession(update.sessionId)
      .then((row) => (row ? advance(row.id) : undefined))
      .catch((err: unknown) => {
        log.warn({ err: messageOf(err), sessionId: update.sessionId }, 'workflow lookup failed');
      });
  });

  const timer = setInterval(() => {
    reconcile().catch((err: unknown) => {
      log.warn({ err: messageOf(err) }, 'workflow reconciliation failed');
    });
  }, opts.reconcileEveryMs);
  timer.unref();

  return {
    store,
    startStep,
    advance,
    reconcile,
    cancel,
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await Promise.all([...queues.values()]);
    },
  };
}
