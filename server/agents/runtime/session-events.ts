import type { LogEntry, SessionUpdate } from '../../../common/agents';
import type { AgentSessionRow } from '../../db/schema/agents';
import { MAX_EVENT_PAYLOAD_BYTES } from '../../platform/events';
import type { NewNotification } from '../../platform/notify';
import { CHANNELS, type JobsMessage, type RuntimeCore, type UpdateEnvelope } from './runtime-core';

/**
 * What the runtime tells about a session after each write: updates on the bus (for every
 * process's WebSocket hub), log lines, the owner's notifications and queued phase jobs.
 */

/** An update's type with its data, e.g. `{ updateType: 'log_update', data: entry }`. */
type UpdateBody = SessionUpdate extends infer U
  ? U extends SessionUpdate
    ? Pick<U, 'updateType' | 'data'>
    : never
  : never;

/**
 * Publishes one update about a session, after the write it describes. Not awaited: the update
 * joins the bus's queue behind this runtime's earlier ones (so every process's sockets get a
 * session's updates in the order they were published) and the caller goes on at once; stopping
 * the runtime sends what is queued.
 */
export function publishUpdate(core: RuntimeCore, row: AgentSessionRow, body: UpdateBody): void {
  const update: SessionUpdate = {
    sessionId: row.id,
    teamId: row.teamId,
    status: row.status,
    phase: row.phase,
    checkpoint: row.checkpoint,
    timestamp: new Date().toISOString(),
    ...body,
  };
  let envelope: UpdateEnvelope = { ownerId: row.ownerId, update };
  if (Buffer.byteLength(JSON.stringify(envelope)) > MAX_EVENT_PAYLOAD_BYTES - 100) {
    envelope = {
      ownerId: row.ownerId,
      update: { ...update, data: null },
      dataOmitted: true,
      ...(body.updateType === 'log_update' && body.data ? { logSeq: body.data.seq } : {}),
    };
  }
  try {
    core.bus.post(CHANNELS.update, envelope);
  } catch (err) {
    // The write is done and polling shows it; a lost real-time message must not fail the step
    // (a failed send is logged by the bus).
    core.app.log.warn(
      { err: (err as Error).message, sessionId: row.id },
      'could not publish update',
    );
  }
}

/**
 * Appends a log line and publishes it. The row given only supplies ids and the state that goes
 * with the update.
 */
export async function writeLog(
  core: RuntimeCore,
  row: AgentSessionRow,
  message: string,
  level: LogEntry['level'] = 'info',
): Promise<LogEntry | undefined> {
  const entry = await core.store.appendLog(row.id, message, level);
  if (entry) publishLog(core, row, entry);
  return entry;
}

/** Publishes a log line that was written with the change it follows (store.updateWithLogs). */
export function publishLog(
  core: RuntimeCore,
  row: AgentSessionRow,
  entry: LogEntry | undefined,
): void {
  if (entry) publishUpdate(core, row, { updateType: 'log_update', data: entry });
}

/**
 * Records an in-app notification about the session (grouped by session in the menu; a
 * checkpoint once per session and checkpoint number); a failure is logged, never thrown into
 * the session.
 */
export async function notifyOwner(
  core: RuntimeCore,
  row: AgentSessionRow,
  notification: NewNotification,
): Promise<void> {
  try {
    await core.app.notify(row.ownerId, {
      ...notification,
      sessionId: row.id,
      ...(notification.kind === 'session_waiting' && row.checkpoint !== null
        ? { dedupeKey: `checkpoint:${row.id}:${row.checkpoint}` }
        : {}),
    });
  } catch (err) {
    core.app.log.warn({ err: (err as Error).message, sessionId: row.id }, 'could not notify owner');
  }
}

/** Queues the job for the session's current step and wakes idle workers everywhere. */
export async function enqueuePhase(
  core: RuntimeCore,
  row: Pick<AgentSessionRow, 'id' | 'step'>,
): Promise<void> {
  await core.queue.enqueue({ sessionId: row.id, step: row.step });
  // This process's workers at once; the others by the bus (not awaited: workers poll anyway).
  core.queue.wake();
  try {
    core.bus.post(CHANNELS.jobs, { from: core.instance } satisfies JobsMessage);
  } catch {
    // Workers poll anyway.
  }
}

/**
 * Runs the session's current step in this process when it runs jobs and has a free slot (the
 * request that started, approved or resumed the session): no job is queued and fetched, the
 * runner claims the session's lease as for a job. Otherwise queues the job for any worker.
 */
export async function startPhase(
  core: RuntimeCore,
  row: Pick<AgentSessionRow, 'id' | 'step'>,
): Promise<void> {
  if (core.queue.runHere({ sessionId: row.id, step: row.step })) return;
  await enqueuePhase(core, row);
}

/** Reads back the data of an update that was too large to travel on the bus. */
export async function hydrateUpdate(
  core: RuntimeCore,
  envelope: UpdateEnvelope,
): Promise<SessionUpdate> {
  if (!envelope.dataOmitted) return envelope.update;
  const u = envelope.update;
  if (u.updateType === 'log_update' && envelope.logSeq !== undefined) {
    return { ...u, data: (await core.store.readLog(u.sessionId, envelope.logSeq)) ?? null };
  }
  const row = await core.store.get(u.sessionId);
  if (!row) return u;
  switch (u.updateType) {
    case 'log_update':
      return u; // no line number to read it back by
    case 'checkpoint_reached':
      return {
        ...u,
        data:
          u.checkpoint === null
            ? null
            : { phase: u.phase, checkpoint: u.checkpoint, checkpointData: row.checkpointData },
      };
    case 'phase_completed': {
      const r = row.results.find((x) => x.phase === u.phase);
      return {
        ...u,
        data: r ? { phase: r.phase, key: r.key, name: r.name, result: r.result } : null,
      };
    }
    case 'process_completed':
      return { ...u, data: { finalOutputs: row.finalOutputs } };
    case 'feedback_submitted': {
      const f = row.feedback[row.feedback.length - 1];
      return { ...u, data: f ?? null };
    }
    default:
      return { ...u, data: { error: row.error ?? 'Unknown error', phase: u.phase } };
  }
}
