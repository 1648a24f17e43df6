import { describe, expect, it } from 'vitest';
import { sessionUpdateSchema, wsServerMessageSchema } from './agents';

const state = {
  sessionId: '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f',
  teamId: 'literature',
  status: 'processing',
  phase: 1,
  checkpoint: null,
  timestamp: '2025-01-01T00:00:01.000Z',
};
const line = { seq: 1, message: 'Started', level: 'info', timestamp: state.timestamp };

describe('session updates', () => {
  it('types data by updateType', () => {
    const update = sessionUpdateSchema.parse({ ...state, updateType: 'log_update', data: line });
    expect(update.updateType === 'log_update' && update.data?.message).toBe('Started');
  });

  it("refuses the data of another type (a log line as a checkpoint's data)", () => {
    const result = sessionUpdateSchema.safeParse({
      ...state,
      updateType: 'checkpoint_reached',
      data: line,
    });
    expect(result.success).toBe(false);
  });

  it('accepts null data (read back failed) and refuses an unknown type', () => {
    expect(
      sessionUpdateSchema.safeParse({ ...state, updateType: 'phase_completed', data: null })
        .success,
    ).toBe(true);
    expect(
      sessionUpdateSchema.safeParse({ ...state, updateType: 'phase_started', data: null }).success,
    ).toBe(false);
  });

  it('parses a WebSocket session-update with its typed data', () => {
    const message = wsServerMessageSchema.parse({
      type: 'session-update',
      ...state,
      updateType: 'process_error',
      data: { error: 'The model timed out', phase: 1 },
    });
    expect(
      message.type === 'session-update' && message.updateType === 'process_error'
        ? message.data?.error
        : undefined,
    ).toBe('The model timed out');
    expect(
      wsServerMessageSchema.safeParse({
        type: 'session-update',
        ...state,
        updateType: 'process_error',
        data: { finalOutputs: 1 },
      }).success,
    ).toBe(false);
  });
});
