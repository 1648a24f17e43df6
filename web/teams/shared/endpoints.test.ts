import { describe, expect, it } from 'vitest';
import { agentSessionSchema } from '../../../common/agents';
import { teamLogsReplySchema } from '../../../common/teams/shared';
import { readTeamStartReply, readTeamStatusReply } from './endpoints';
import { makeSession, SESSION_ID } from './testing/fakeRuntime';

describe('reading the replies every team route gives', () => {
  const session = makeSession({
    status: 'waiting_for_input',
    phase: 2,
    checkpoint: 1,
    results: [
      {
        phase: 1,
        key: 'search',
        name: 'Search',
        result: { n: 3 },
        completedAt: '2025-01-01T00:00:01.000Z',
      },
    ],
  });

  it('reads a start or feedback reply into the session id and the session as it stands', () => {
    const read = readTeamStartReply({
      success: true,
      sessionId: SESSION_ID,
      status: 'waiting_for_input',
      phase: 1,
      session,
    });
    expect(read?.sessionId).toBe(SESSION_ID);
    expect(read?.snapshot).toMatchObject({
      status: 'waiting_for_input',
      phase: 2,
      checkpoint: 1,
      results: { 1: { n: 3 } },
    });
  });

  it('refuses a reply that is not of the shared shape', () => {
    expect(readTeamStartReply({ sessionId: SESSION_ID })).toBeUndefined();
    expect(
      readTeamStartReply({ success: true, sessionId: 'x', status: 'idle', phase: 0, session }),
    ).toBeUndefined();
    expect(readTeamStartReply(null)).toBeUndefined();
  });

  it('reads a status reply by the team schema, with the whole log it carries', () => {
    const schema = teamLogsReplySchema.extend({ session: agentSessionSchema });
    const reply = { success: true, sessionId: SESSION_ID, logs: ['a', 'b'], session };
    expect(readTeamStatusReply(schema, reply)).toMatchObject({
      status: 'waiting_for_input',
      logs: ['a', 'b'],
    });
    expect(readTeamStatusReply(schema, { ...reply, logs: 'a' })).toBeUndefined();
  });
});
