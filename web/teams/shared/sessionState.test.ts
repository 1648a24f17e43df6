import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '../../../common/agents';
import { initialSessionState, sessionReducer, type TeamSessionState } from './sessionState';

const ID = '3f0c8a4e-1111-4c2b-9d7e-000000000001';
const at = (ms: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, 0, ms)).toISOString();

function update(fields: Partial<SessionUpdate> & Pick<SessionUpdate, 'updateType'>) {
  return {
    sessionId: ID,
    teamId: 'literature',
    status: 'processing',
    phase: 2,
    checkpoint: null,
    timestamp: at(0),
    data: null,
    ...fields,
  } as SessionUpdate;
}

/** Waiting at checkpoint 1, as the socket left it at `at(100)`. */
const atCheckpoint1: TeamSessionState = sessionReducer(
  { ...initialSessionState, sessionId: ID, status: 'processing', phase: 2, synced: true },
  {
    type: 'update',
    update: update({
      updateType: 'checkpoint_reached',
      status: 'waiting_for_input',
      checkpoint: 1,
      timestamp: at(100),
      data: { phase: 2, checkpoint: 1, checkpointData: { gaps: ['first'] } },
    }),
  },
);

describe('feedback reply against real-time updates', () => {
  it('moves to processing when nothing newer arrived while the call was in flight', () => {
    const next = sessionReducer(atCheckpoint1, {
      type: 'feedback-sent',
      sessionId: ID,
      sentAt: atCheckpoint1.stateAt,
      snapshot: { status: 'processing', phase: 2 },
    });
    expect(next).toMatchObject({ status: 'processing', checkpoint: null, checkpointData: null });
  });

  it('keeps the next checkpoint the socket delivered before the reply, and polls still apply', () => {
    // The re-run finished and its checkpoint arrived over the socket before the HTTP reply.
    let state = sessionReducer(atCheckpoint1, {
      type: 'update',
      update: update({ updateType: 'feedback_submitted', timestamp: at(200) }),
    });
    state = sessionReducer(state, {
      type: 'update',
      update: update({
        updateType: 'checkpoint_reached',
        status: 'waiting_for_input',
        phase: 3,
        checkpoint: 2,
        timestamp: at(300),
        data: { phase: 3, checkpoint: 2, checkpointData: { references: ['r'] } },
      }),
    });
    state = sessionReducer(state, {
      type: 'feedback-sent',
      sessionId: ID,
      sentAt: atCheckpoint1.stateAt,
      snapshot: { status: 'processing', phase: 2 },
    });
    expect(state).toMatchObject({
      status: 'waiting_for_input',
      phase: 3,
      checkpoint: 2,
      checkpointData: { references: ['r'] },
    });
    // The row was written just before the update was published: a poll of it still applies.
    state = sessionReducer(state, {
      type: 'snapshot',
      sessionId: ID,
      snapshot: {
        status: 'waiting_for_input',
        phase: 3,
        checkpoint: 2,
        checkpointData: { references: ['r'] },
        updatedAt: at(290),
      },
    });
    expect(state).toMatchObject({ status: 'waiting_for_input', checkpoint: 2 });
  });
});
