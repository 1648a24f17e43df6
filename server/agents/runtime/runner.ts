import os from 'node:os';
import crypto from 'node:crypto';
import { z } from 'zod';
import type { LogEntry, PhaseResult } from '../../../common/agents';
import type { AgentSessionRow } from '../../db/schema/agents';
import { AppError } from '../../platform/errors';
import { CHANNELS, type ControlMessage, type RuntimeCore } from './runtime-core';
import { announceCompletion, completionLine, completionPatch } from './session-completion';
import { enqueuePhase, notifyOwner, publishLog, publishUpdate, writeLog } from './session-events';
import { machineState, sessionLink, teamName } from './session-view';
import { isModelError } from '../llm/errors';
import type { ModelHandle } from '../llm/model-layer';
import { sessionUsageColumns } from '../llm/usage-store';
import type { PhaseJob } from './queue';
import { createProvenanceRecorder } from '../kit/provenance';
import { createWorkspace } from '../kit/workspace';
import { transition } from './state-machine';
import type { NewLogLine } from './store';
import type { PhaseDefinition, PhaseLog, PhaseRuntimeContext, TeamDefinition } from './team';
import { isDatabaseUnavailable } from '../../db/unavailable';

/** Why a running phase was stopped from outside. */
class StopSignal extends Error {
  constructor(
    readonly reason: 'cancel' | 'pause' | 'reset' | 'timeout' | 'budget' | 'lost' | 'shutdown',
    message = `Phase stopped: ${reason}`,
  ) {
    super(message);
    this.name = 'StopSignal';
  }
}

/** A phase's result that its schema refused. */
class PhaseOutputError extends Error {}

export interface Runner {
  /**
   * Runs the phase job (called by the queue's workers), then the session's next phases while
   * they follow without a checkpoint. `ack` is called once the job's own phase is written: the
   * queue records the job as done then, not after the phases that follow.
   */
  run(job: PhaseJob, ack?: () => void): Promise<void>;
  /** Queues every session that should be running but is not (at start and periodically). */
  sweep(idleMs: number): Promise<number>;
  /** Sessions this process is running now. */
  running(): number;
  /** Ends every running phase (their sessions stay resumable) and waits for them. */
  stop(): Promise<void>;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/** The text a failed phase leaves in the session's error field. */
/**
 * How a checkpoint is named in the log and the notification: "Checkpoint 1: Items Review", once,
 * whether the phase's title says "Checkpoint 1: ..." itself or only "Items Review".
 */
export function checkpointLabel(checkpoint: number | null, title: string): string {
  const t = title.trim();
  if (/^checkpoint\b/i.test(t)) return t;
  return checkpoint === null ? t : `Checkpoint ${checkpoint}: ${t}`;
}

/**
 * The line a phase starts with. A re-run: the newest feedback was given at this phase's
 * checkpoint and not approved.
 */
function revisionOf(
  row: Pick<AgentSessionRow, 'phase' | 'feedback' | 'results'>,
): { feedback: string; previousResult: unknown } | null {
  const lastFeedback = row.feedback[row.feedback.length - 1];
  const previous = row.results.find((r) => r.phase === row.phase);
  return lastFeedback && !lastFeedback.approved && lastFeedback.phase === row.phase && previous
    ? { feedback: lastFeedback.feedback, previousResult: previous.result }
    : null;
}

function startLine(
  row: Pick<AgentSessionRow, 'phase' | 'feedback' | 'results'>,
  phases: PhaseDefinition[],
): string {
  const name = phases[row.phase - 1]?.name ?? `Phase ${row.phase}`;
  return revisionOf(row)
    ? `Running phase ${row.phase}/${phases.length} again with your feedback: ${name}`
    : `Starting phase ${row.phase}/${phases.length}: ${name}`;
}

function failureMessage(phase: PhaseDefinition, err: unknown): string {
  if (err instanceof PhaseOutputError) return err.message;
  const message =
    err instanceof AppError || isModelError(err) || err instanceof Error
      ? err.message
      : String(err);
  return `${phase.name} failed: ${message || 'unknown error'}`;
}

/** Resolves with the phase's result, or rejects as soon as the signal aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    // Subscribe first: the phase's own late rejection must never be left unhandled.
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createRunner(core: RuntimeCore): Runner {
  const { store, registry, limits, models } = core;
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Claims under way: a stop waits for them, so no phase starts after it (see run). */
  const claiming = new Set<Promise<unknown>>();
  let stopping = false;

  const unsubscribe = core.bus.subscribe(CHANNELS.control, (payload) => {
    const msg = payload as ControlMessage;
    inFlight.get(msg.sessionId)?.controller.abort(new StopSignal(msg.reason));
  });

  async function refreshUsage(row: AgentSessionRow): Promise<number> {
    const totals = await models.usage.forSession(row.id);
    await store.setUsage(row.id, totals);
    return totals.totalTokens;
  }

  function budgetText(row: AgentSessionRow, used: number): string {
    return (
      `The session has used ${used.toLocaleString('en-US')} model tokens of its budget of ` +
      `${(row.tokenBudget ?? 0).toLocaleString('en-US')} and was stopped. Start a new session, or ` +
      'ask an administrator to raise AGENT_SESSION_TOKEN_BUDGET.'
    );
  }

  /**
   * The phase's model handle with the token budget applied: no call starts once the budget is
   * used up, and the call that goes over it stops the phase. Counts the calls made.
   */
  function budgeted(
    handle: ModelHandle,
    row: AgentSessionRow,
    controller: AbortController,
    usage: { used: number; calls: number },
  ): ModelHandle {
    const budget = row.tokenBudget;
    const stop = () => {
      const signal = new StopSignal('budget', budgetText(row, usage.used));
      controller.abort(signal);
      return signal;
    };
    const before = () => {
      usage.calls++;
      if (budget !== null && usage.used >= budget) throw stop();
    };
    const after = (tokens: number) => {
      usage.used += tokens;
      if (budget !== null && usage.used > budget) throw stop();
    };
    return {
      async generateText(input) {
        before();
        const result = await handle.generateText(input);
        after(result.usage.totalTokens);
        return result;
      },
      async generateObject(schema, input) {
        before();
        const result = await handle.generateObject(schema, input);
        after(result.usage.totalTokens);
        return result;
      },
    };
  }

  /** Ends the session with an error: 'phase' = process_error, 'runtime' = error. */
  async function fail(
    row: AgentSessionRow,
    kind: 'phase' | 'runtime',
    message: string,
  ): Promise<void> {
    const team = registry.team(row.teamId);
    let next;
    try {
      next = transition(
        machineState(row),
        { type: kind === 'phase' ? 'phase_failed' : 'runtime_error' },
        team ? registry.planShape(team, row.plan) : { totalPhases: 0, checkpointOf: () => null },
      );
    } catch {
      return;
    }
    // The tokens a failed session used are written with its new status.
    const totals = await models.usage.forSession(row.id).catch(() => undefined);
    const after = await store.update(
      row.id,
      { step: row.step, leaseOwner: owner },
      {
        status: next.state.status,
        phase: next.state.phase,
        checkpoint: null,
        checkpointData: null,
        error: message,
        completedAt: new Date(),
        leaseOwner: null,
        leaseUntil: null,
        ...(totals
          ? {
              inputTokens: totals.inputTokens,
              outputTokens: totals.outputTokens,
              costUsd: totals.costUsd,
              llmCalls: totals.calls,
            }
          : {}),
      },
    );
    if (!after) return;
    await writeLog(core, after, message, 'error');
    publishUpdate(core, after, {
      updateType: kind === 'phase' ? 'process_error' : 'error',
      data: { error: message, phase: after.phase },
    });
    const name = teamName(core, after);
    await notifyOwner(core, after, {
      kind: 'session_failed',
      title: `${name} session stopped with an error`,
      message,
      link: sessionLink(core, after),
    });
  }

  /**
   * A phase's log lines, written behind it: a line is queued when the phase gives it (after the
   * work it describes) and the phase goes on at once. One statement at a time writes every line
   * queued while the one before was on its way (or in the same turn of the event loop), in
   * order, and publishes them after the write; the lines still queued when the phase ends go
   * into its result's statement (`take`). A write that fails stops the phase with its error, as
   * an awaited write failing in the phase did.
   */
  function lineWriter(row: AgentSessionRow, controller: AbortController) {
    let queued: NewLogLine[] = [];
    let sending: Promise<void> | undefined;
    let scheduled = false;
    let taking = false;
    let failure: { error: unknown } | undefined;
    const schedule = (): void => {
      if (scheduled || sending || taking || queued.length === 0 || failure) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        send();
      });
    };
    const send = (): void => {
      if (sending || taking || queued.length === 0 || failure) return;
      const batch = queued;
      queued = [];
      sending = store
        .appendLogs(row.id, batch)
        .then(
          (entries) => {
            for (const entry of entries) publishLog(core, row, entry);
          },
          (error: unknown) => {
            failure = { error };
            controller.abort(error);
          },
        )
        .finally(() => {
          sending = undefined;
          schedule();
        });
    };
    /**
     * Waits for the lines on their way; returns those not sent yet (now the caller's). Lines
     * given after it are written as before.
     */
    const take = async (): Promise<NewLogLine[]> => {
      taking = true;
      try {
        while (sending) await sending;
        if (failure) throw failure.error;
        const rest = queued;
        queued = [];
        return rest;
      } finally {
        taking = false;
      }
    };
    return {
      add(message: string, level: LogEntry['level']): void {
        queued.push({ message, level });
        schedule();
      },
      take,
      /** Writes and publishes every line given (before the phase's failure or stop is written). */
      async flush(): Promise<void> {
        const rest = await take();
        if (rest.length === 0) return;
        for (const entry of await store.appendLogs(row.id, rest)) publishLog(core, row, entry);
      },
    };
  }

  function buildLog(lines: ReturnType<typeof lineWriter>, signal: AbortSignal): PhaseLog {
    // A phase that ignores its signal must not write lines after it was stopped.
    const write = (message: string, level: 'info' | 'warn' | 'error') => {
      if (!signal.aborted) lines.add(message, level);
      return Promise.resolve();
    };
    const log = ((message: string) => write(message, 'info')) as PhaseLog;
    log.warn = (message) => write(message, 'warn');
    log.error = (message) => write(message, 'error');
    return log;
  }

  /**
   * Runs the row's phase under its lease. `started`: its start line, already written with the
   * previous phase's result (published here, first). Returns the session leased for its next
   * phase when that phase follows at once (no checkpoint, not stopping): the result's write
   * took the lease for it and wrote its start line, so it runs here without a job or a claim.
   */
  async function execute(
    row: AgentSessionRow,
    session: AbortSignal,
    started?: LogEntry,
  ): Promise<{ row: AgentSessionRow; started: LogEntry | undefined } | undefined> {
    const team: TeamDefinition | undefined = registry.team(row.teamId);
    if (!team) {
      await fail(row, 'runtime', `The ${row.teamId} team is not available on this server`);
      return;
    }
    const phases = registry.phasesOf(team, row.plan);
    const phase = phases[row.phase - 1];
    if (!phase) {
      await fail(row, 'runtime', `Phase ${row.phase} does not exist in this session's plan`);
      return;
    }
    // This phase's stops (timeout, budget, lost lease) and the session's (cancel, pause, reset,
    // shutdown), which outlive the phase.
    const controller = new AbortController();
    const follow = () => controller.abort(session.reason);
    if (session.aborted) follow();
    else session.addEventListener('abort', follow, { once: true });
    const signal = controller.signal;
    const lines = lineWriter(row, controller);
    const timeoutMs =
      (phase.timeoutSeconds ?? 0) > 0 ? phase.timeoutSeconds! * 1000 : limits.phaseTimeoutMs;
    const timer = setTimeout(
      () =>
        controller.abort(
          new StopSignal(
            'timeout',
            `Phase ${row.phase} (${phase.name}) did not finish within ${seconds(timeoutMs)} and was stopped`,
          ),
        ),
      timeoutMs,
    );
    const usage = { used: row.inputTokens + row.outputTokens, calls: 0 };
    const heartbeat = setInterval(
      () => {
        void (async () => {
          const held = await store.renewLease(row.id, row.step, owner, limits.leaseMs);
          if (!held) {
            controller.abort(new StopSignal('lost'));
            return;
          }
          if (row.tokenBudget !== null) {
            // Failed calls count too; they are only in the model layer's records.
            usage.used = Math.max(usage.used, await refreshUsage(row));
            if (usage.used > row.tokenBudget) {
              controller.abort(new StopSignal('budget', budgetText(row, usage.used)));
            }
          }
        })().catch((err: unknown) => {
          core.app.log.warn(
            { err: (err as Error).message, sessionId: row.id },
            'lease renewal failed',
          );
        });
      },
      Math.max(250, Math.floor(limits.leaseMs / 3)),
    );

    const startedAt = performance.now();
    try {
      // The cached totals are current: they are refreshed after every phase that used the model.
      if (row.tokenBudget !== null && usage.used >= row.tokenBudget) {
        throw new StopSignal('budget', budgetText(row, usage.used));
      }
      const revision = revisionOf(row);
      const resultList = row.results.filter((r) => r.phase < row.phase);
      const results: Record<string, unknown> = {};
      for (const r of resultList) results[r.key] = r.result;
      // What this phase retrieves, computes and reads, on top of the session's earlier phases.
      const provenance = createProvenanceRecorder(row.provenance, {
        key: phase.key,
        startedAt: new Date().toISOString(),
      });
      const ctx: PhaseRuntimeContext = {
        session: {
          id: row.id,
          teamId: row.teamId,
          agentId: row.agentId,
          ownerId: row.ownerId,
          projectId: row.projectId,
        },
        input: row.input,
        configuration: row.configuration,
        phase: { number: row.phase, key: phase.key, name: phase.name, totalPhases: phases.length },
        log: buildLog(lines, signal),
        llm: budgeted(
          models.forCall({
            userId: row.ownerId,
            sessionId: row.id,
            agent: row.teamId,
            phase: phase.key,
            signal,
          }),
          row,
          controller,
          usage,
        ),
        workspace: createWorkspace(core.app, {
          userId: row.ownerId,
          projectId: row.projectId,
          sessionId: row.id,
          teamId: row.teamId,
          provenance: () => provenance.running(),
        }),
        provenance,
        services: core.services,
        results,
        resultList,
        feedback: row.feedback,
        revision,
        signal,
      };
      if (started) publishLog(core, row, started);
      else {
        // A run that claimed its phase writes its start line before the phase runs: if this
        // process dies mid-phase, the log still shows the run (the one taking over writes its own).
        lines.add(startLine(row, phases), 'info');
        await lines.flush();
      }
      const raw = await untilAborted(phase.run(ctx), signal);
      if (signal.aborted) throw signal.reason as Error;
      const parsed = phase.result.safeParse(raw);
      if (!parsed.success) {
        throw new PhaseOutputError(
          `${phase.name} produced a result that does not match its schema: ` +
            z.prettifyError(parsed.error).replace(/\s+/g, ' ').slice(0, 500),
        );
      }
      const result = parsed.data;
      // The session's usage totals are refreshed after every phase that called the model; they
      // are written with the phase's result (below), in the same statement. Without a budget to
      // check first, that statement computes them itself.
      const budgetChecked = usage.calls > 0 && row.tokenBudget !== null;
      const totals = budgetChecked ? await models.usage.forSession(row.id) : undefined;
      if (totals) usage.used = totals.totalTokens;
      if (row.tokenBudget !== null && usage.used > row.tokenBudget) {
        if (totals) await store.setUsage(row.id, totals);
        throw new StopSignal('budget', budgetText(row, usage.used));
      }
      const usageColumns = totals
        ? {
            inputTokens: totals.inputTokens,
            outputTokens: totals.outputTokens,
            costUsd: totals.costUsd,
            llmCalls: totals.calls,
          }
        : usage.calls > 0
          ? sessionUsageColumns(row.id)
          : {};

      const next = transition(
        machineState(row),
        { type: 'phase_done' },
        registry.planShape(team, row.plan),
      );
      const entry: PhaseResult = {
        phase: row.phase,
        key: phase.key,
        name: phase.name,
        result,
        completedAt: new Date().toISOString(),
      };
      const allResults = [...row.results.filter((r) => r.phase !== row.phase), entry].sort(
        (a, b) => a.phase - b.phase,
      );
      const waiting = next.state.status === 'waiting_for_input';
      const done = next.state.status === 'completed';
      // The next phase follows at once: it runs here, under the lease this write takes for it.
      const continues = next.runPhase && !stopping && !session.aborted;
      const label = checkpointLabel(next.state.checkpoint, phase.checkpoint?.title ?? phase.name);
      const nextStart = continues
        ? startLine(
            { phase: next.state.phase, feedback: row.feedback, results: allResults },
            phases,
          )
        : undefined;
      // The phase's lines not written yet, the phase's result, the session's new state and the
      // log lines that follow it (completed; then waiting at the checkpoint, the session
      // completed, or the next phase's start) in one statement; the lines are published below
      // in their places among the updates.
      const pending = await lines.take();
      const written = await store.updateWithLogs(
        row.id,
        { step: row.step, leaseOwner: owner },
        {
          status: next.state.status,
          phase: next.state.phase,
          checkpoint: next.state.checkpoint,
          checkpointData: waiting ? (phase.checkpoint?.data?.(result) ?? result) : null,
          results: allResults,
          // The session's provenance goes with the phase's result, in the same write.
          provenance: provenance.completed(entry.completedAt),
          ...(continues
            ? {
                leaseOwner: owner,
                leaseUntil: new Date(Date.now() + limits.leaseMs),
                attempts: 1,
              }
            : { leaseOwner: null, leaseUntil: null, attempts: 0 }),
          ...usageColumns,
          ...(done ? completionPatch(team, allResults) : {}),
        },
        [
          ...pending,
          {
            message: `Completed phase ${entry.phase}/${phases.length}: ${phase.name} in ${seconds(performance.now() - startedAt)}`,
            level: 'info',
          },
          ...(waiting
            ? [{ message: `Waiting for your feedback at ${label}`, level: 'info' as const }]
            : []),
          ...(done ? [{ message: completionLine(row), level: 'info' as const }] : []),
          ...(nextStart ? [{ message: nextStart, level: 'info' as const }] : []),
        ],
      );
      // Cancelled, paused or reset while finishing: that change stands, this result is dropped
      // (the usage totals are still written).
      if (!written) {
        if (pending.length > 0) {
          for (const entry of await store.appendLogs(row.id, pending)) publishLog(core, row, entry);
        }
        if (totals) await store.setUsage(row.id, totals);
        else if (usage.calls > 0) await refreshUsage(row);
        return;
      }
      const after = written.row;
      // The phase's own lines go with the state they were given in, as if written on their own.
      for (const entry of written.logs.slice(0, pending.length)) publishLog(core, row, entry);
      const [completedLine, nextLine] = written.logs.slice(pending.length);
      publishLog(core, after, completedLine);
      publishUpdate(core, after, {
        updateType: 'phase_completed',
        data: { phase: entry.phase, key: entry.key, name: entry.name, result },
      });
      const name = teamName(core, after);
      if (waiting) {
        publishLog(core, after, nextLine);
        publishUpdate(core, after, {
          updateType: 'checkpoint_reached',
          // Waiting always has a checkpoint number (state machine); the type cannot say so.
          data:
            after.checkpoint === null
              ? null
              : {
                  phase: after.phase,
                  checkpoint: after.checkpoint,
                  checkpointData: after.checkpointData,
                },
        });
        await notifyOwner(core, after, {
          kind: 'session_waiting',
          title: `${name}: your review is needed`,
          message: `${label} is waiting for your feedback.`,
          link: sessionLink(core, after),
        });
      } else if (done) {
        await announceCompletion(core, after, nextLine);
      } else if (continues) {
        return { row: after, started: nextLine };
      } else if (next.runPhase) {
        await enqueuePhase(core, after);
      }
    } catch (err) {
      // The phase's lines first: they describe work done before its failure or stop.
      await lines.flush().catch((flushErr: unknown) => {
        core.app.log.warn(
          { err: (flushErr as Error).message, sessionId: row.id },
          'could not write the log lines of a stopped phase',
        );
      });
      const stop = signal.aborted ? (signal.reason as unknown) : err;
      if (stop instanceof StopSignal) {
        switch (stop.reason) {
          case 'cancel':
          case 'pause':
          case 'reset':
            return; // the service wrote the change and its log line
          case 'lost':
          case 'shutdown':
            await store.releaseLease(row.id, owner);
            return;
          case 'timeout':
          case 'budget':
            await fail(row, 'runtime', stop.message);
            return;
        }
      }
      if (isDatabaseUnavailable(err)) {
        // The database failed, not the phase: nothing is written as the phase's outcome (a
        // write made once it is back would mark a sound session failed). The lease is given
        // back if the database answers again, or runs out; the phase then runs again from its
        // job's retry, the hand-back below, or the sweep.
        await store.releaseLease(row.id, owner).catch(() => undefined);
        throw err;
      }
      await fail(row, 'phase', failureMessage(phase, err));
    } finally {
      clearTimeout(timer);
      clearInterval(heartbeat);
      session.removeEventListener('abort', follow);
    }
  }

  /**
   * A session leased for its next phase that this process will not run (shutdown, or the
   * session was cancelled, paused or reset meanwhile): its start line is published, the lease
   * given back and, if it is still to run, its job queued for any process.
   */
  async function handBack(row: AgentSessionRow, started: LogEntry | undefined): Promise<void> {
    publishLog(core, row, started);
    await store.releaseLease(row.id, owner);
    const current = await store.get(row.id);
    if (current && current.step === row.step && current.status === 'processing') {
      await enqueuePhase(core, current);
    }
  }

  return {
    async run(job, ack) {
      if (stopping) throw new Error('This worker is stopping');
      // A claim that ends after a stop began hands the session back instead of running it (a
      // phase started by a request could otherwise run on after the process closed its files).
      const claim = store
        .claim(job.sessionId, job.step, owner, limits.leaseMs)
        .then(async (row) => {
          if (!row || !stopping) return row;
          await handBack(row, undefined);
          return undefined;
        });
      claiming.add(claim);
      let claimed: AgentSessionRow | undefined;
      try {
        claimed = await claim;
      } finally {
        claiming.delete(claim);
      }
      // Stale (the session moved on), duplicate or held by a live runner: nothing to do.
      if (!claimed) return;
      // Stops of the session (cancel, pause, reset, shutdown), for every phase run here.
      const controller = new AbortController();
      let finish!: () => void;
      const done = new Promise<void>((resolve) => (finish = resolve));
      inFlight.set(claimed.id, { controller, done });
      let row = claimed;
      let started: LogEntry | undefined;
      try {
        for (;;) {
          let next;
          try {
            next = await execute(row, controller.signal, started);
          } catch (err) {
            // The database failed under a phase that no job stands for any more (the job was
            // recorded done after the first phase): queue one, or leave it to the sweep.
            if (row === claimed) throw err;
            core.app.log.warn(
              { err: (err as Error).message, sessionId: row.id },
              'phase failed outside its job; handing the session back',
            );
            await handBack(row, undefined).catch(() => undefined);
            return;
          }
          if (!next) return;
          ack?.();
          if (stopping || controller.signal.aborted) {
            await handBack(next.row, next.started);
            return;
          }
          row = next.row;
          started = next.started;
        }
      } finally {
        inFlight.delete(claimed.id);
        finish();
      }
    },

    async sweep(idleMs) {
      const orphans = await store.findOrphans(idleMs);
      for (const o of orphans) {
        await store.touch(o.id, o.step);
        await enqueuePhase(core, o);
      }
      return orphans.length;
    },

    running: () => inFlight.size,

    async stop() {
      stopping = true;
      unsubscribe();
      await Promise.allSettled([...claiming]);
      const all = [...inFlight.values()];
      for (const r of all) r.controller.abort(new StopSignal('shutdown'));
      await Promise.race([
        Promise.all(all.map((r) => r.done)),
        new Promise((resolve) => setTimeout(resolve, 5000).unref()),
      ]);
    },
  };
}
