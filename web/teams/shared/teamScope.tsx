import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useSearchParams } from 'react-router';
import type { SessionStatus } from '../../../common/agents';
import { useSessionUser } from '../../api/session';
import type { TeamManifest } from '../manifest';

/**
 * What a team screen shares with the address bar and with the frame around it, so that every
 * team gets it from the shared session hook and TeamScreenLayout without code of its own:
 *
 * - the session shown lives in `?sessionId=` from the moment it starts or is followed (the
 *   address is replaced, not pushed, so Back leaves the screen), so a reload, Back or a link
 *   shared with a collaborator opens it again; `?session=`, which notifications still use, is
 *   read as the same thing;
 * - the project the next start goes into lives in `?projectId=` (absent: no project);
 * - the session hook tells the frame which session it shows (the frame makes a checkpoint
 *   read-only for someone who did not start it), asks it before a start that would leave an open
 *   session behind, and hands it the open sessions when the server refuses a start at the limit.
 *
 * This file stays free of MUI: the router wraps every team route in the provider.
 */

export const SESSION_PARAM = 'sessionId';
/** The older name of the session parameter (notification links); read, then replaced. */
export const SESSION_PARAM_ALIAS = 'session';
export const PROJECT_PARAM = 'projectId';

/** The session in the address: `?sessionId=`, else `?session=`. */
export function sessionIdOf(params: URLSearchParams): string | undefined {
  return params.get(SESSION_PARAM) || params.get(SESSION_PARAM_ALIAS) || undefined;
}

/** A session that can still change: running, or waiting at a checkpoint. */
export function isOpenStatus(status: SessionStatus): boolean {
  return status === 'processing' || status === 'waiting_for_input';
}

/** A session the screen or the server names: enough to describe it and link to it. */
export interface OpenSession {
  sessionId: string;
  teamId: string;
  status: SessionStatus;
  checkpoint: number | null;
  phaseName?: string | null;
  createdAt?: string;
}

/** The session the screen shows, as its hook last read it. */
export interface ShownSession {
  sessionId: string;
  status: SessionStatus;
  checkpoint: number | null;
  /** Who started it (absent until the server said). */
  ownerId?: string;
  projectId?: string | null;
}

/** What a start would leave behind: an open session of this team. */
export interface StartQuestion {
  session: OpenSession;
  /** It is the session the screen shows (else one found among the user's open sessions). */
  shown: boolean;
}
export type StartChoice = 'resume' | 'start' | 'cancel';

/** What the frame needs of a team to name it and link to its screen. */
export type TeamRef = Pick<TeamManifest, 'id' | 'route' | 'name'>;

export interface TeamScope {
  teamId: string;
  /** The team screens, to name a session's team and link to it (given by the router). */
  teams: readonly TeamRef[];
  /** The signed-in user's id (undefined when the stored user has none). */
  userId: string | undefined;
  sessionId: string | undefined;
  projectId: string | undefined;
  /** Puts the session in the address (undefined removes it), replacing the entry. */
  setSessionId(id: string | undefined): void;
  /** Puts the project in the address (undefined: no project), replacing the entry. */
  setProjectId(id: string | undefined): void;
  shown: ShownSession | undefined;
  show(session: ShownSession | undefined): void;
  /** The projects the user may edit, once the project selector has read them. */
  editableProjects: ReadonlySet<string> | undefined;
  setEditableProjects(ids: ReadonlySet<string>): void;
  /** The question waiting for the user's choice, if any. */
  question: StartQuestion | undefined;
  ask(question: StartQuestion): Promise<StartChoice>;
  answer(choice: StartChoice): void;
  /** The user's open sessions, after the server refused a start at the session limit. */
  openSessions: OpenSession[] | undefined;
  showOpenSessions(sessions: OpenSession[] | undefined): void;
}

const TeamScopeContext = createContext<TeamScope | undefined>(undefined);

/** The team screen's scope; undefined outside a team route (e.g. a hook rendered in a test). */
export function useTeamScope(): TeamScope | undefined {
  return useContext(TeamScopeContext);
}

/** The project the next start of this screen goes into (for a start the hook does not make). */
export function useTeamProjectId(): string | undefined {
  return useTeamScope()?.projectId;
}

/**
 * Why the user cannot answer the checkpoints of a session or stop it, or undefined when they can:
 * the researcher who started it and the editors of its project may; the project's other members
 * (viewers) follow it. `editable`: the projects the user may edit, once known.
 */
export function readOnlyReason(
  userId: string | undefined,
  session: { ownerId?: string; projectId?: string | null },
  editable: ReadonlySet<string> | undefined,
): string | undefined {
  const { ownerId, projectId } = session;
  if (!userId || !ownerId || ownerId === userId) return undefined;
  if (projectId && editable?.has(projectId)) return undefined;
  return "Another member of the project started this session: you can follow it here, but only the researcher who started it and the project's editors can answer its checkpoints or stop it.";
}

/** The read-only reason for the session the screen shows (undefined outside a team route). */
export function useReadOnlyReason(): string | undefined {
  const scope = useTeamScope();
  return scope?.shown
    ? readOnlyReason(scope.userId, scope.shown, scope.editableProjects)
    : undefined;
}

type Change = Partial<Record<typeof SESSION_PARAM | typeof PROJECT_PARAM, string | undefined>>;

/**
 * The scope of one team route: reads and replaces the address's parameters, and keeps what the
 * session hook and the frame tell each other.
 */
export function TeamScopeProvider({
  teamId,
  teams,
  children,
}: {
  teamId: string;
  /** The team screens (the router's list; the shared UI does not import it, which would loop). */
  teams: readonly TeamRef[];
  children: ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const user = useSessionUser();
  // Two changes in one tick (the session and its project) must not undo each other: each starts
  // from the parameters last written, not from the ones of the last render.
  const current = useRef(params);
  useEffect(() => {
    current.current = params;
  }, [params]);

  const change = useCallback(
    (changes: Change) => {
      const next = new URLSearchParams(current.current);
      for (const [key, value] of Object.entries(changes)) {
        if (key === SESSION_PARAM) next.delete(SESSION_PARAM_ALIAS);
        if (value) next.set(key, value);
        else next.delete(key);
      }
      if (next.toString() === current.current.toString()) return;
      current.current = next;
      setParams(next, { replace: true });
    },
    [setParams],
  );
  const setSessionId = useCallback(
    (id: string | undefined) => change({ [SESSION_PARAM]: id }),
    [change],
  );
  const setProjectId = useCallback(
    (id: string | undefined) => change({ [PROJECT_PARAM]: id }),
    [change],
  );

  const [shown, setShown] = useState<ShownSession>();
  const show = useCallback((session: ShownSession | undefined) => {
    setShown((previous) => (sameShown(previous, session) ? previous : session));
  }, []);

  const [question, setQuestion] = useState<StartQuestion>();
  const pending = useRef<((choice: StartChoice) => void) | undefined>(undefined);
  const ask = useCallback((q: StartQuestion) => {
    pending.current?.('cancel');
    setQuestion(q);
    return new Promise<StartChoice>((resolve) => {
      pending.current = resolve;
    });
  }, []);
  const answer = useCallback((choice: StartChoice) => {
    const resolve = pending.current;
    pending.current = undefined;
    setQuestion(undefined);
    resolve?.(choice);
  }, []);
  // A question left open when the screen goes away is a cancelled start.
  useEffect(() => () => pending.current?.('cancel'), []);

  const [openSessions, showOpenSessions] = useState<OpenSession[]>();
  const [editableProjects, setEditable] = useState<ReadonlySet<string>>();
  const setEditableProjects = useCallback((ids: ReadonlySet<string>) => {
    setEditable((previous) =>
      previous && previous.size === ids.size && [...ids].every((id) => previous.has(id))
        ? previous
        : ids,
    );
  }, []);

  const sessionId = sessionIdOf(params);
  const projectId = params.get(PROJECT_PARAM) || undefined;
  const value = useMemo<TeamScope>(
    () => ({
      teamId,
      teams,
      userId: user?.id,
      sessionId,
      projectId,
      setSessionId,
      setProjectId,
      shown,
      show,
      editableProjects,
      setEditableProjects,
      question,
      ask,
      answer,
      openSessions,
      showOpenSessions,
    }),
    [
      teamId,
      teams,
      user?.id,
      sessionId,
      projectId,
      setSessionId,
      setProjectId,
      shown,
      show,
      editableProjects,
      setEditableProjects,
      question,
      ask,
      answer,
      openSessions,
    ],
  );
  return <TeamScopeContext value={value}>{children}</TeamScopeContext>;
}

function sameShown(a: ShownSession | undefined, b: ShownSession | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.sessionId === b.sessionId &&
    a.status === b.status &&
    a.checkpoint === b.checkpoint &&
    a.ownerId === b.ownerId &&
    a.projectId === b.projectId
  );
}
