import type { RepairAttempt } from '../../../../common/teams/code';
import type { ExecutionResult } from '../../../engines/sandbox';
import type { PhaseLog } from '../../kit';
import { describeFailure, isRepairable } from './code-text';

/** How many times a failure goes back to the model before the phase gives up on it. */
export const MAX_REPAIRS = 2;

export interface RepairLoop<S> {
  /** What is being run, for the log ('The generated code'). */
  what: string;
  /** Logged when a repair worked ('the generated code now runs'). */
  succeeded: string;
  initial: S;
  run(state: S): Promise<ExecutionResult>;
  /** Asks the model for a fix of `failure`; returns the new state and what it changed. */
  repair(
    state: S,
    failure: string,
    attempt: number,
  ): Promise<{ state: S; changed: RepairAttempt['changed'] }>;
  log: PhaseLog;
  maxRepairs?: number;
  /** The phase's signal: a cancelled session's failed repair call is not a model's failure. */
  signal?: AbortSignal;
}

/**
 * Runs, and while the run fails in a way a change of code can fix, sends the failure to the
 * model and runs its fix, at most `maxRepairs` times. Every attempt is logged after it ran. A
 * repair the model could not give ends the repairs: the last run stands (what was computed is
 * kept), and the log says why.
 */
export async function runWithRepairs<S>(
  loop: RepairLoop<S>,
): Promise<{ state: S; result: ExecutionResult; repairs: RepairAttempt[] }> {
  const max = loop.maxRepairs ?? MAX_REPAIRS;
  let state = loop.initial;
  let result = await loop.run(state);
  const repairs: RepairAttempt[] = [];
  while (isRepairable(result) && repairs.length < max) {
    const attempt = repairs.length + 1;
    const problem = describeFailure(result);
    await loop.log.warn(
      `${loop.what} failed in the sandbox (${result.error ?? 'failed'}); asking the model for ` +
        `a fix, attempt ${attempt} of ${max}`,
    );
    let fixed: Awaited<ReturnType<RepairLoop<S>['repair']>>;
    try {
      fixed = await loop.repair(state, problem, attempt);
    } catch (err) {
      if (loop.signal?.aborted) throw err;
      await loop.log.warn(
        `Repair attempt ${attempt}: the model's fix could not be read (${(err as Error).message}); the last run stands`,
      );
      break;
    }
    state = fixed.state;
    result = await loop.run(state);
    repairs.push({
      attempt,
      problem: problem.slice(0, 4000),
      changed: fixed.changed,
      outcome: result.ok ? 'fixed' : 'still_failing',
    });
    if (result.ok) await loop.log(`Repair attempt ${attempt}: ${loop.succeeded}`);
    else {
      await loop.log.warn(`Repair attempt ${attempt}: still failing (${result.error ?? 'failed'})`);
    }
  }
  return { state, result, repairs };
}
