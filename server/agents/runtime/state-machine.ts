import type { SessionStatus } from '../../../common/agents';

/**
 * The session state machine (idle -> processing -> waiting at a checkpoint -> processing ...
 * -> completed, or error), as pure functions: the server applies every
 * change through `transition`, so an illegal move (feedback while processing, anything after
 * completion) is refused in one place.
 *
 * `phase` is 0 before start, then the 1-based number of the current phase. `checkpoint` is the
 * 1-based number of the checkpoint the session waits at. `paused` marks a session stopped by
 * agent-control pause: status idle, resumable at the phase it was in.
 */
export interface MachineState {
  status: SessionStatus;
  phase: number;
  checkpoint: number | null;
  paused: boolean;
}

/** The shape of a session's plan that the rules need. */
export interface PlanShape {
  totalPhases: number;
  /** The checkpoint number phase `phase` ends at, or null when it ends without one. */
  checkpointOf(phase: number): number | null;
}

export type MachineEvent =
  | { type: 'start' }
  /** The current phase returned a valid result. */
  | { type: 'phase_done' }
  /** The current phase threw (process_error). */
  | { type: 'phase_failed' }
  /** The runtime stopped the session: timeout, token budget, lost process (error). */
  | { type: 'runtime_error' }
  | { type: 'feedback'; approved: boolean }
  | { type: 'cancel' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'reset' };

interface TransitionResult {
  state: MachineState;
  /** A job must run the (new) current phase. */
  runPhase: boolean;
}

/** An event that is not allowed in the current state; the message is shown to the user (409). */
export class TransitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransitionError';
  }
}

const STATUS_WORDS: Record<SessionStatus, string> = {
  idle: 'idle',
  processing: 'processing',
  waiting_for_input: 'waiting for input',
  completed: 'completed',
  error: 'stopped with an error',
};

function describe(state: MachineState): string {
  return state.status === 'idle' && state.paused ? 'paused' : STATUS_WORDS[state.status];
}

export const INITIAL_STATE: MachineState = {
  status: 'idle',
  phase: 0,
  checkpoint: null,
  paused: false,
};

/** Moves on after phase `phase` is done (approved, or finished without a checkpoint). */
function advance(phase: number, plan: PlanShape): TransitionResult {
  if (phase >= plan.totalPhases) {
    return {
      state: { status: 'completed', phase: plan.totalPhases, checkpoint: null, paused: false },
      runPhase: false,
    };
  }
  return {
    state: { status: 'processing', phase: phase + 1, checkpoint: null, paused: false },
    runPhase: true,
  };
}

export function transition(
  state: MachineState,
  event: MachineEvent,
  plan: PlanShape,
): TransitionResult {
  if (state.status === 'completed') {
    throw new TransitionError(
      'This session is completed; start a new session to run the team again',
    );
  }
  switch (event.type) {
    case 'start':
      if (state.status !== 'idle' || state.paused || state.phase !== 0) {
        throw new TransitionError(
          `The session cannot be started: it is ${describe(state)}${state.paused ? '; resume it instead' : ''}`,
        );
      }
      if (plan.totalPhases < 1) throw new TransitionError('This team has no phases to run');
      return {
        state: { status: 'processing', phase: 1, checkpoint: null, paused: false },
        runPhase: true,
      };

    case 'phase_done': {
      if (state.status !== 'processing' || state.paused) {
        throw new TransitionError(`A phase cannot finish while the session is ${describe(state)}`);
      }
      const checkpoint = plan.checkpointOf(state.phase);
      if (checkpoint !== null) {
        return {
          state: { status: 'waiting_for_input', phase: state.phase, checkpoint, paused: false },
          runPhase: false,
        };
      }
      return advance(state.phase, plan);
    }

    case 'phase_failed':
      if (state.status !== 'processing') {
        throw new TransitionError(`A phase cannot fail while the session is ${describe(state)}`);
      }
      return { state: { ...state, status: 'error', checkpoint: null }, runPhase: false };

    case 'runtime_error':
      if (state.status !== 'processing' && state.status !== 'waiting_for_input') {
        throw new TransitionError(`The session is ${describe(state)}`);
      }
      return { state: { ...state, status: 'error', checkpoint: null }, runPhase: false };

    case 'feedback':
      if (state.status !== 'waiting_for_input') {
        throw new TransitionError(
          `Feedback can only be given while the session is waiting for input; it is ${describe(state)}`,
        );
      }
      if (event.approved) return advance(state.phase, plan);
      // Any other text re-runs the same phase, which pauses at the same checkpoint again.
      return {
        state: { status: 'processing', phase: state.phase, checkpoint: null, paused: false },
        runPhase: true,
      };

    case 'cancel':
      if (
        state.status === 'processing' ||
        state.status === 'waiting_for_input' ||
        (state.status === 'idle' && state.paused)
      ) {
        return {
          state: { status: 'error', phase: state.phase, checkpoint: null, paused: false },
          runPhase: false,
        };
      }
      throw new TransitionError(`There is nothing to cancel: the session is ${describe(state)}`);

    case 'pause':
      if (state.status !== 'processing' || state.paused) {
        throw new TransitionError(
          `Only a processing session can be paused; it is ${describe(state)}`,
        );
      }
      return {
        state: { status: 'idle', phase: state.phase, checkpoint: null, paused: true },
        runPhase: false,
      };

    case 'resume':
      if (state.status !== 'idle' || !state.paused) {
        throw new TransitionError(`Only a paused session can be resumed; it is ${describe(state)}`);
      }
      return {
        state: { status: 'processing', phase: state.phase, checkpoint: null, paused: false },
        runPhase: true,
      };

    case 'reset':
      return { state: { ...INITIAL_STATE }, runPhase: false };
  }
}

/** Whether a session in this state counts against the per-user concurrent-session limit. */
export function isActive(state: Pick<MachineState, 'status'>): boolean {
  return state.status === 'processing' || state.status === 'waiting_for_input';
}
