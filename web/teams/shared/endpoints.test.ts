import { describe, expect, it } from 'vitest';
import { agentSessionSchema } from '../../../common/agents';
import { teamLogsReplySchema } from '../../../common/teams/shared';
import { readTeamStartReply, readTeamStatusReply, teamRouteEndpoints } from './endpoints';
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

describe('teamRouteEndpoints', () => {
  const schema = teamLogsReplySchema.extend({ session: agentSessionSchema });
  const base = '/api/agents/x-team';
  const session = makeSession({ status: 'waiting_for_input', phase: 2, checkpoint: 2 });

  it('starts with the team call, polls status (which carries the log) and resets generically', () => {
    const ep = teamRouteEndpoints<{ a: number }>({
      teamId: 'x',
      base,
      start: (input) => ({ path: `${base}/develop`, body: input }),
      statusSchema: schema,
    });
    expect(ep.start!({ a: 1 })).toEqual({ path: `${base}/develop`, body: { a: 1 } });
    expect(ep.status!('a b')).toBe(`${base}/status/a%20b`);
    expect(ep.logs).toBeUndefined();
    expect(ep.reset!('s1').path).toBe('/api/agents/sessions/s1/reset');
    // Without checkpoints the generic feedback call is left in place.
    expect('feedback' in ep).toBe(false);
    expect(
      ep.readStatus!({ success: true, sessionId: SESSION_ID, logs: ['l'], session }),
    ).toMatchObject({ checkpoint: 2, logs: ['l'] });
    expect(ep.readStatus!({ nonsense: true })).toBeUndefined();
  });

  it('sends feedback to the team with the checkpoint only when asked to', () => {
    const start = () => ({ path: '', body: {} });
    const plain = teamRouteEndpoints({
      teamId: 'x',
      base,
      start,
      statusSchema: schema,
      feedback: 'plain',
    });
    const named = teamRouteEndpoints({
      teamId: 'x',
      base,
      start,
      statusSchema: schema,
      feedback: 'with-checkpoint',
    });
    expect(plain.feedback!('s1', 'More', 2)).toEqual({
      path: `${base}/feedback`,
      body: { sessionId: 's1', feedback: 'More' },
    });
    expect(named.feedback!('s1', 'More', 2).body).toEqual({
      sessionId: 's1',
      feedback: 'More',
      checkpoint: 2,
    });
    expect(named.feedback!('s1', 'More', null).body).toEqual({ sessionId: 's1', feedback: 'More' });
    const reply = { success: true, sessionId: SESSION_ID, status: 'processing', phase: 2, session };
    expect(named.readFeedback!(reply)).toMatchObject({ status: 'waiting_for_input', phase: 2 });
    expect(named.readFeedback!({ success: true })).toBeUndefined();
  });
});
