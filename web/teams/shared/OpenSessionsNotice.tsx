import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useOpenTeamSessions } from '../../api/queries/sessions';
import { openSessionState, teamSessionHref } from './sessionLinks';
import { useTeamScope, type OpenSession, type TeamRef } from './teamScope';

function SessionList({
  sessions,
  teamId,
  manifests,
}: {
  sessions: readonly OpenSession[];
  teamId: string;
  manifests: readonly TeamRef[];
}) {
  const name = (teamId: string) => manifests.find((m) => m.id === teamId)?.name ?? teamId;
  return (
    <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
      {sessions.map((s) => (
        <li key={s.sessionId}>
          {/* On this team's own screen the link replaces the entry: Back still leaves the screen. */}
          <Link
            component={RouterLink}
            to={teamSessionHref(manifests, s.teamId, s.sessionId)}
            replace={s.teamId === teamId}
          >
            {name(s.teamId)}
          </Link>
          {`: ${openSessionState(s)}`}
          {s.createdAt ? `, started ${new Date(s.createdAt).toLocaleString()}` : ''}
        </li>
      ))}
    </ul>
  );
}

/**
 * Above a team screen's work: after a start refused at the session limit, the user's open
 * sessions with their links; on a screen opened without a session, the user's open sessions of
 * this team, so one left waiting at a checkpoint is never lost from its screen.
 */
export function OpenSessionsNotice() {
  const scope = useTeamScope();
  const idle = scope !== undefined && scope.sessionId === undefined && scope.shown === undefined;
  const open = useOpenTeamSessions(scope?.teamId ?? '', idle);
  if (!scope) return null;
  if (scope.openSessions) {
    return (
      <Alert
        severity="warning"
        sx={{ mb: 2 }}
        onClose={() => scope.showOpenSessions(undefined)}
        role="alert"
      >
        {scope.openSessions.length > 0
          ? 'You have reached the limit of open sessions. Finish, cancel or reset one of these, then start again:'
          : 'You have reached the limit of open sessions. Finish, cancel or reset one, then start again.'}
        {scope.openSessions.length > 0 && (
          <SessionList
            sessions={scope.openSessions}
            teamId={scope.teamId}
            manifests={scope.teams}
          />
        )}
      </Alert>
    );
  }
  const sessions = idle ? (open.data ?? []) : [];
  if (sessions.length === 0) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      {sessions.length === 1
        ? 'You have an open session of this team:'
        : `You have ${sessions.length} open sessions of this team:`}
      <SessionList
        teamId={scope.teamId}
        manifests={scope.teams}
        sessions={sessions.map((s) => ({
          sessionId: s.sessionId,
          teamId: s.teamId,
          status: s.status,
          checkpoint: s.checkpoint,
          phaseName: s.phaseName,
          createdAt: s.createdAt,
        }))}
      />
    </Alert>
  );
}
