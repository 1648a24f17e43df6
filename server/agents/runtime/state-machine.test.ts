import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_STATE,
  TransitionError,
  transition,
  type MachineEvent,
  type MachineState,
  type PlanShape,
} from './state-machine';

/** Three phases; phases 1 and 3 end at checkpoints 1 and 2. */
const plan: PlanShape = {
  totalPhases: 3,
  checkpointOf: (phase) => (phase === 1 ? 1 : phase === 3 ? 2 : null),
};

function run(events: MachineEvent[], from: MachineState = INITIAL_STATE): MachineState {
  return events.reduce((state, event) => transition(state, event, plan).state, from);
}

describe('session state machine', () => {
  it('start moves to processing at phase 1 and asks for the phase to run', () => {
    const r = transition(INITIAL_STATE, { type: 'start' }, plan);
    expect(r.state).toEqual({ status: 'processing', phase: 1, checkpoint: null, paused: false });
    expect(r.runPhase).toBe(true);
  });

  it('a phase with a checkpoint moves to waiting_for_input and records the checkpoint', () => {
    const r = transition(run([{ type: 'start' }]), { type: 'phase_done' }, plan);
    expect(r.state).toEqual({
      status: 'waiting_for_input',
      phase: 1,
      checkpoint: 1,
      paused: false,
    });
    expect(r.runPhase).toBe(false);
  });

  it('Approved continues with the next phase', () => {
    const waiting = run([{ type: 'start' }, { type: 'phase_done' }]);
    const r = transition(waiting, { type: 'feedback', approved: true }, plan);
    expect(r.state).toEqual({ status: 'processing', phase: 2, checkpoint: null, paused: false });
    expect(r.runPhase).toBe(true);
  });

  it('other feedback re-runs the same phase, which stops at the same checkpoint again', () => {
    const waiting = run([{ type: 'start' }, { type: 'phase_done' }]);
    const rerun = transition(waiting, { type: 'feedback', approved: false }, plan);
    expect(rerun.state).toMatchObject({ status: 'processing', phase: 1, checkpoint: null });
    expect(rerun.runPhase).toBe(true);
    const again = transition(rerun.state, { type: 'phase_done' }, plan);
    expect(again.state).toMatchObject({ status: 'waiting_for_input', phase: 1, checkpoint: 1 });
  });

  it('a phase without a checkpoint goes straight on; the last approval completes', () => {
    const s = run([
      { type: 'start' },
      { type: 'phase_done' },
      { type: 'feedback', approved: true },
      { type: 'phase_done' },
    ]);
    expect(s).toMatchObject({ status: 'processing', phase: 3 });
    const waiting = transition(s, { type: 'phase_done' }, plan).state;
    expect(waiting).toMatchObject({ status: 'waiting_for_input', phase: 3, checkpoint: 2 });
    const done = transition(waiting, { type: 'feedback', approved: true }, plan);
    expect(done.state).toEqual({ status: 'completed', phase: 3, checkpoint: null, paused: false });
    expect(done.runPhase).toBe(false);
  });

  it('a last phase without a checkpoint completes the session', () => {
    const noCheckpoints: PlanShape = { totalPhases: 2, checkpointOf: () => null };
    let s = transition(INITIAL_STATE, { type: 'start' }, noCheckpoints).state;
    s = transition(s, { type: 'phase_done' }, noCheckpoints).state;
    expect(s).toMatchObject({ status: 'processing', phase: 2 });
    s = transition(s, { type: 'phase_done' }, noCheckpoints).state;
    expect(s.status).toBe('completed');
  });

  it('refuses feedback unless waiting for input', () => {
    for (const s of [INITIAL_STATE, run([{ type: 'start' }])]) {
      expect(() => transition(s, { type: 'feedback', approved: true }, plan)).toThrow(
        /only be given while the session is waiting for input/,
      );
    }
    const failed = run([{ type: 'start' }, { type: 'phase_failed' }]);
    expect(() => transition(failed, { type: 'feedback', approved: false }, plan)).toThrow(
      TransitionError,
    );
  });

  it('accepts nothing after completion, not even reset', () => {
    const done: MachineState = { status: 'completed', phase: 3, checkpoint: null, paused: false };
    const events: MachineEvent[] = [
      { type: 'start' },
      { type: 'phase_done' },
      { type: 'phase_failed' },
      { type: 'runtime_error' },
      { type: 'feedback', approved: true },
      { type: 'cancel' },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'reset' },
    ];
    for (const e of events) {
      expect(() => transition(done, e, plan), e.type).toThrow(/completed/);
    }
  });

  it('phase_failed and runtime_error move to error', () => {
    expect(run([{ type: 'start' }, { type: 'phase_failed' }]).status).toBe('error');
    expect(run([{ type: 'start' }, { type: 'phase_done' }, { type: 'runtime_error' }]).status).toBe(
      'error',
    );
  });

  it('reset returns to idle with defaults from any state but completed', () => {
    const states = [
      run([{ type: 'start' }]),
      run([{ type: 'start' }, { type: 'phase_done' }]),
      run([{ type: 'start' }, { type: 'phase_failed' }]),
      run([{ type: 'start' }, { type: 'pause' }]),
    ];
    for (const s of states) {
      const r = transition(s, { type: 'reset' }, plan);
      expect(r.state).toEqual(INITIAL_STATE);
      expect(r.runPhase).toBe(false);
    }
  });

  it('pause stops a processing session; resume re-runs the same phase', () => {
    const processing = run([
      { type: 'start' },
      { type: 'phase_done' },
      { type: 'feedback', approved: true },
    ]);
    const paused = transition(processing, { type: 'pause' }, plan).state;
    expect(paused).toEqual({ status: 'idle', phase: 2, checkpoint: null, paused: true });
    expect(() => transition(paused, { type: 'start' }, plan)).toThrow(/resume it instead/);
    const resumed = transition(paused, { type: 'resume' }, plan);
    expect(resumed.state).toEqual({
      status: 'processing',
      phase: 2,
      checkpoint: null,
      paused: false,
    });
    expect(resumed.runPhase).toBe(true);
    expect(() => transition(processing, { type: 'resume' }, plan)).toThrow(/Only a paused/);
    expect(() => transition(paused, { type: 'pause' }, plan)).toThrow(/Only a processing/);
  });

  it('cancel stops running, waiting and paused sessions, and nothing else', () => {
    for (const s of [
      run([{ type: 'start' }]),
      run([{ type: 'start' }, { type: 'phase_done' }]),
      run([{ type: 'start' }, { type: 'pause' }]),
    ]) {
      expect(transition(s, { type: 'cancel' }, plan).state.status).toBe('error');
    }
    expect(() => transition(INITIAL_STATE, { type: 'cancel' }, plan)).toThrow(/nothing to cancel/);
    const failed = run([{ type: 'start' }, { type: 'phase_failed' }]);
    expect(() => transition(failed, { type: 'cancel' }, plan)).toThrow(/nothing to cancel/);
  });

  it('start is refused once a session has started', () => {
    expect(() => transition(run([{ type: 'start' }]), { type: 'start' }, plan)).toThrow(
      /cannot be started/,
    );
  });

  it('property: any event sequence keeps the state consistent', () => {
    const eventArb = fc.constantFrom<MachineEvent>(
      { type: 'start' },
      { type: 'phase_done' },
      { type: 'phase_failed' },
      { type: 'runtime_error' },
      { type: 'feedback', approved: true },
      { type: 'feedback', approved: false },
      { type: 'cancel' },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'reset' },
    );
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        let state = INITIAL_STATE;
        for (const event of events) {
          const before = state;
          try {
            state = transition(state, event, plan).state;
          } catch (err) {
            expect(err).toBeInstanceOf(TransitionError);
            expect(state).toBe(before);
            continue;
          }
          // Invariants that must hold after every accepted transition.
          expect(state.phase).toBeGreaterThanOrEqual(0);
          expect(state.phase).toBeLessThanOrEqual(plan.totalPhases);
          expect(state.checkpoint !== null).toBe(state.status === 'waiting_for_input');
          if (state.checkpoint !== null) {
            expect(plan.checkpointOf(state.phase)).toBe(state.checkpoint);
          }
          expect(state.paused).toBe(state.status === 'idle' && state.paused);
          if (state.status === 'processing') expect(state.phase).toBeGreaterThanOrEqual(1);
          if (before.status === 'completed') throw new Error('left completed');
          if (event.type === 'feedback') expect(before.status).toBe('waiting_for_input');
        }
      }),
    );
  });
});
