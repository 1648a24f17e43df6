import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigationType } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamSocket } from '../../api/ws';
import { fakeSocketFactory, ManualTimers } from './testing/fakeSocket';
import { FakeRuntimeHttp, makeSession, OTHER_SESSION_ID, SESSION_ID } from './testing/fakeRuntime';
import { TeamScopeProvider, useTeamScope, type TeamScope } from './teamScope';
import { useTeamSession, type TeamSession } from './useTeamSession';
import type { GenericStartInput } from './endpoints';

/** The team screens the frame names and links (the router gives the manifests). */
const TEAMS = [
  { id: 'literature', route: 'literature-team', name: 'Literature Review' },
  { id: 'data', route: 'data-team', name: 'Data' },
];

const ME = '11111111-1111-4111-8111-111111111111';
const SOMEONE = '22222222-2222-4222-8222-222222222222';
const PROJECT = '33333333-3333-4333-8333-333333333333';
const OTHER_PROJECT = '44444444-4444-4444-8444-444444444444';

/** The address as the router sees it, and how the last change was made. */
const address = { search: '', navigation: '' };
function Probe() {
  address.search = useLocation().search;
  address.navigation = useNavigationType();
  return null;
}

function signIn(id: string) {
  localStorage.setItem('accessToken', 'a');
  localStorage.setItem('refreshToken', 'r');
  localStorage.setItem('user', JSON.stringify({ id, displayName: 'Me', email: 'me@x.test' }));
}

/** The shared hook on a team route at `path`, with the scope it shares with the frame. */
function onRoute(path: string, http = new FakeRuntimeHttp()) {
  const socket = new TeamSocket({
    url: 'ws://example.test/ws',
    getToken: () => 't',
    createSocket: fakeSocketFactory().create,
    timers: new ManualTimers(),
    pingIntervalMs: 0,
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[path]}>
      <TeamScopeProvider teamId="literature" teams={TEAMS}>
        <Probe />
        {children}
      </TeamScopeProvider>
    </MemoryRouter>
  );
  const hook = renderHook(
    (): { session: TeamSession<GenericStartInput>; scope: TeamScope } => ({
      session: useTeamSession({ teamId: 'literature', http, socket }),
      scope: useTeamScope()!,
    }),
    { wrapper },
  );
  const settle = () =>
    act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  return { hook, http, settle };
}

const params = () => new URLSearchParams(address.search);

/** A fake server whose session is `overrides` (set before the screen reads it). */
function serverWith(overrides: Parameters<typeof makeSession>[0]) {
  const http = new FakeRuntimeHttp();
  http.session = makeSession(overrides);
  return http;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  localStorage.clear();
  signIn(ME);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('a team screen keeps its session in the address', () => {
  it('follows ?sessionId= from the address', async () => {
    const { hook, http, settle } = onRoute(
      `/app/literature-team?sessionId=${SESSION_ID}`,
      serverWith({ ownerId: ME, status: 'waiting_for_input', checkpoint: 2 }),
    );
    await settle();
    expect(http.calls[0]).toEqual({ method: 'GET', path: `/api/agents/sessions/${SESSION_ID}` });
    expect(hook.result.current.session.sessionId).toBe(SESSION_ID);
    expect(hook.result.current.session.status).toBe('waiting_for_input');
    expect(hook.result.current.session.checkpoint).toBe(2);
    expect(hook.result.current.scope.shown).toMatchObject({
      sessionId: SESSION_ID,
      status: 'waiting_for_input',
      ownerId: ME,
    });
  });

  it('reads the older ?session= and writes it back as ?sessionId=, replacing the entry', async () => {
    const { hook, settle } = onRoute(`/app/literature-team?session=${SESSION_ID}`);
    await settle();
    expect(hook.result.current.session.sessionId).toBe(SESSION_ID);
    expect(params().get('sessionId')).toBe(SESSION_ID);
    expect(params().has('session')).toBe(false);
    expect(address.navigation).toBe('REPLACE');
  });

  it('puts a started session in the address at once, and sends the project of the address', async () => {
    const { hook, http } = onRoute(`/app/literature-team?projectId=${PROJECT}`);
    http.session = makeSession({ ownerId: ME, projectId: PROJECT });
    await act(async () => {
      await hook.result.current.session.start({ input: { researchQuestion: 'Why?' } });
    });
    const start = http.calls.find((c) => c.method === 'POST');
    expect(start).toEqual({
      method: 'POST',
      path: '/api/agents/sessions',
      body: { input: { researchQuestion: 'Why?' }, teamId: 'literature', projectId: PROJECT },
    });
    expect(params().get('sessionId')).toBe(SESSION_ID);
    expect(params().get('projectId')).toBe(PROJECT);
    expect(address.navigation).toBe('REPLACE');
  });

  it('sends no project when the address has none ("No project")', async () => {
    const { hook, http } = onRoute('/app/literature-team');
    await act(async () => {
      await hook.result.current.session.start({ input: { researchQuestion: 'Why?' } });
    });
    const start = http.calls.find((c) => c.method === 'POST');
    expect(start?.body).not.toHaveProperty('projectId');
  });

  it("shows the followed session's project in the address", async () => {
    const { settle } = onRoute(
      `/app/literature-team?sessionId=${SESSION_ID}&projectId=${OTHER_PROJECT}`,
      serverWith({ ownerId: ME, projectId: PROJECT, status: 'completed' }),
    );
    await settle();
    expect(params().get('projectId')).toBe(PROJECT);
    expect(params().get('sessionId')).toBe(SESSION_ID);
  });

  it('forgets the session in the address on reset', async () => {
    const { hook, settle } = onRoute(`/app/literature-team?sessionId=${SESSION_ID}`);
    await settle();
    await act(async () => {
      await hook.result.current.session.reset();
    });
    expect(params().has('sessionId')).toBe(false);
    expect(hook.result.current.session.sessionId).toBeUndefined();
  });

  it('follows another session when the address changes to it, and not again the same one', async () => {
    const { hook, http, settle } = onRoute(`/app/literature-team?sessionId=${SESSION_ID}`);
    await settle();
    const reads = http.count('GET', `/api/agents/sessions/${SESSION_ID}`);
    act(() => hook.result.current.session.attach(SESSION_ID));
    await settle();
    expect(http.count('GET', `/api/agents/sessions/${SESSION_ID}`)).toBe(reads);
    act(() => hook.result.current.scope.setSessionId(OTHER_SESSION_ID));
    await settle();
    expect(hook.result.current.session.sessionId).toBe(OTHER_SESSION_ID);
  });
});

describe('a start never silently leaves an open session behind', () => {
  async function waitingOnScreen() {
    const t = onRoute(
      `/app/literature-team?sessionId=${SESSION_ID}`,
      serverWith({ ownerId: ME, status: 'waiting_for_input', checkpoint: 1 }),
    );
    await t.settle();
    return t;
  }

  it('asks while the shown session waits; Back to it starts nothing', async () => {
    const { hook, http, settle } = await waitingOnScreen();
    let outcome: Promise<string> = Promise.resolve('');
    act(() => {
      outcome = hook.result.current.session.requestStart({ input: {} });
    });
    await settle();
    expect(hook.result.current.scope.question).toMatchObject({
      shown: true,
      session: { sessionId: SESSION_ID, status: 'waiting_for_input', checkpoint: 1 },
    });
    await act(async () => {
      hook.result.current.scope.answer('resume');
      await outcome;
    });
    await expect(outcome).resolves.toBe('declined');
    expect(http.count('POST', '/api/agents/sessions')).toBe(0);
    expect(hook.result.current.session.sessionId).toBe(SESSION_ID);
    expect(hook.result.current.scope.question).toBeUndefined();
  });

  it('starts another when the user says so', async () => {
    const { hook, http, settle } = await waitingOnScreen();
    let outcome: Promise<string> = Promise.resolve('');
    act(() => {
      outcome = hook.result.current.session.requestStart({ input: {} });
    });
    await settle();
    await act(async () => {
      hook.result.current.scope.answer('start');
      await outcome;
    });
    await expect(outcome).resolves.toBe('started');
    expect(http.count('POST', '/api/agents/sessions')).toBe(1);
  });

  it("offers one of the user's open sessions of the team when the screen shows none", async () => {
    const { hook, http, settle } = onRoute('/app/literature-team');
    http.listed = [
      makeSession({
        sessionId: OTHER_SESSION_ID,
        ownerId: ME,
        status: 'waiting_for_input',
        checkpoint: 2,
      }),
      makeSession({ sessionId: SESSION_ID, teamId: 'data', ownerId: ME, status: 'processing' }),
    ];
    let outcome: Promise<string> = Promise.resolve('');
    act(() => {
      outcome = hook.result.current.session.requestStart({ input: {} });
    });
    await settle();
    expect(http.calls.filter((c) => c.method === 'GET').map((c) => c.path)).toEqual([
      '/api/agents/sessions?status=waiting_for_input&limit=20&teamId=literature',
      '/api/agents/sessions?status=processing&limit=20&teamId=literature',
    ]);
    expect(hook.result.current.scope.question).toMatchObject({
      shown: false,
      session: { sessionId: OTHER_SESSION_ID, checkpoint: 2 },
    });
    await act(async () => {
      hook.result.current.scope.answer('resume');
      await outcome;
    });
    await settle();
    expect(http.count('POST', '/api/agents/sessions')).toBe(0);
    expect(hook.result.current.session.sessionId).toBe(OTHER_SESSION_ID);
    expect(params().get('sessionId')).toBe(OTHER_SESSION_ID);
  });

  it('cancel starts nothing and leaves the screen as it was', async () => {
    const { hook, http, settle } = onRoute('/app/literature-team');
    http.listed = [makeSession({ ownerId: ME, status: 'processing' })];
    let started: Promise<boolean> = Promise.resolve(true);
    act(() => {
      started = hook.result.current.session.start({ input: {} });
    });
    await settle();
    await act(async () => {
      hook.result.current.scope.answer('cancel');
      await started;
    });
    await expect(started).resolves.toBe(false);
    expect(http.count('POST', '/api/agents/sessions')).toBe(0);
    expect(hook.result.current.session.sessionId).toBeUndefined();
    expect(hook.result.current.session.error).toBeUndefined();
  });

  it('names the open sessions when the server refuses a start at the limit', async () => {
    const { hook, http, settle } = onRoute('/app/literature-team');
    http.fail(
      '/api/agents/sessions',
      409,
      'You already have 5 active agent sessions (running or waiting for your feedback); the limit is 5.',
    );
    // The team's own open sessions are asked for first: the failure is for the start's POST.
    http.get = ((get) => async (path: string) => {
      if (path.includes('teamId=')) {
        http.calls.push({ method: 'GET', path });
        return { success: true, sessions: [], total: 0, limit: 20, offset: 0 };
      }
      return get(path);
    })(http.get);
    http.listed = [
      makeSession({
        sessionId: OTHER_SESSION_ID,
        teamId: 'data',
        ownerId: ME,
        status: 'processing',
      }),
    ];
    let outcome: Promise<string> = Promise.resolve('');
    await act(async () => {
      outcome = hook.result.current.session.requestStart({ input: {} });
      await outcome;
    });
    await settle();
    await expect(outcome).resolves.toBe('refused');
    expect(hook.result.current.session.error).toMatch(/the limit is 5/);
    expect(hook.result.current.scope.openSessions).toEqual([
      expect.objectContaining({ sessionId: OTHER_SESSION_ID, teamId: 'data' }),
    ]);
  });
});

describe("someone else's session is read-only", () => {
  it('says why, and a reset leaves it without stopping it on the server', async () => {
    const { hook, http, settle } = onRoute(
      `/app/literature-team?sessionId=${SESSION_ID}`,
      serverWith({ ownerId: SOMEONE, status: 'waiting_for_input', checkpoint: 1 }),
    );
    await settle();
    expect(hook.result.current.session.readOnly).toMatch(/only the researcher who started it/);
    await act(async () => {
      await hook.result.current.session.reset();
    });
    expect(http.count('POST', `/api/agents/sessions/${SESSION_ID}/reset`)).toBe(0);
  });

  it("is not read-only for an editor of the session's project", async () => {
    const { hook, settle } = onRoute(
      `/app/literature-team?sessionId=${SESSION_ID}`,
      serverWith({
        ownerId: SOMEONE,
        projectId: PROJECT,
        status: 'waiting_for_input',
        checkpoint: 1,
      }),
    );
    await settle();
    expect(hook.result.current.session.readOnly).toMatch(/the project's editors/);
    act(() => hook.result.current.scope.setEditableProjects(new Set([PROJECT])));
    expect(hook.result.current.session.readOnly).toBeUndefined();
    act(() => hook.result.current.scope.setEditableProjects(new Set([OTHER_PROJECT])));
    expect(hook.result.current.session.readOnly).toBeDefined();
  });

  it('is not read-only for the one who started it', async () => {
    const { hook, settle } = onRoute(
      `/app/literature-team?sessionId=${SESSION_ID}`,
      serverWith({ ownerId: ME, status: 'waiting_for_input', checkpoint: 1 }),
    );
    await settle();
    expect(hook.result.current.session.readOnly).toBeUndefined();
  });

  it("asks nothing about another's open session before a start: it looks for the user's own", async () => {
    const { hook, http, settle } = onRoute(
      `/app/literature-team?sessionId=${SESSION_ID}`,
      serverWith({ ownerId: SOMEONE, status: 'processing' }),
    );
    await settle();
    await act(async () => {
      await hook.result.current.session.start({ input: {} });
    });
    expect(hook.result.current.scope.question).toBeUndefined();
    expect(http.count('POST', '/api/agents/sessions')).toBe(1);
  });
});
