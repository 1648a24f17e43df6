import type { LogEntry, PhaseResult } from '../../../common/agents';
import type { AgentSessionRow } from '../../db/schema/agents';
import type { RuntimeCore } from './runtime-core';
import { notifyOwner, publishLog, publishUpdate, writeLog } from './session-events';
import { sessionLink, teamName } from './session-view';
import type { SessionPatch } from './store';
import type { TeamDefinition } from './team';

/**
 * How a session completes, the same whether its last phase finished (runner.ts) or its last
 * checkpoint was approved (service.ts): the final outputs written with the status, then the
 * log line, the update and the owner's notification.
 */

/** The session's final outputs: the team's own choice, else the last phase's result. */
function finalOutputsOf(team: TeamDefinition, results: PhaseResult[]): unknown {
  const byKey: Record<string, unknown> = {};
  for (const r of results) byKey[r.key] = r.result;
  if (team.finalOutputs) return team.finalOutputs(byKey);
  return results[results.length - 1]?.result ?? null;
}

/** The fields a completing session's write adds to its status change. */
export function completionPatch(
  team: TeamDefinition,
  results: PhaseResult[],
): Pick<SessionPatch, 'finalOutputs' | 'completedAt'> {
  return { finalOutputs: finalOutputsOf(team, results), completedAt: new Date() };
}

/**
 * The project's stage and progress follow its work: a session completing on it may reach a new
 * stage (the rule is the projects module's). A failure is logged: the session has completed.
 */
async function recordProjectWork(core: RuntimeCore, projectId: string): Promise<void> {
  const teams = core.registry.teams().map((t) => ({
    id: t.id,
    label: t.label,
    stage: t.stage ?? null,
  }));
  try {
    await core.app.modules.projects.recordWork(projectId, teams);
  } catch (err) {
    core.app.log.warn({ err: (err as Error).message, projectId }, 'could not record project work');
  }
}

/** The log line a completed session ends with. */
export function completionLine(row: Pick<AgentSessionRow, 'plan'>): string {
  return `Session completed: all ${row.plan.length} phases done`;
}

/**
 * Announces a completion after the write: log line, process_completed, notification. `written`
 * is that log line when the caller already wrote it with the completing change
 * (store.updateWithLogs); it is published
 * here, in its place.
 */
export async function announceCompletion(
  core: RuntimeCore,
  row: AgentSessionRow,
  written?: LogEntry,
): Promise<void> {
  const name = teamName(core, row);
  const phases = row.plan.length;
  if (written) publishLog(core, row, written);
  else await writeLog(core, row, completionLine(row));
  if (row.projectId) await recordProjectWork(core, row.projectId);
  publishUpdate(core, row, {
    updateType: 'process_completed',
    data: { finalOutputs: row.finalOutputs },
  });
  await notifyOwner(core, row, {
    kind: 'session_completed',
    title: `${name} session completed`,
    message: `Your ${name} session has finished all ${phases} phases.`,
    link: sessionLink(core, row),
  });
}
