import { Link as RouterLink } from 'react-router';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { SESSION_STATUS_LABELS } from '../../../../common/agents';
import { useProjectSessions } from '../../../api/queries/sessions';
import { formatDateTime } from '../shared/format';
import { useTeamDirectory } from '../shared/teams';
import { SectionCard } from '../../../components/SectionCard';
import { LoadingSkeleton } from '../../../components';

/** The project's agent sessions (GET /api/agents/sessions?projectId=). */
export function SessionsSection({ projectId }: { projectId: string }) {
  const sessions = useProjectSessions(projectId);
  const teams = useTeamDirectory();
  const list = sessions.data?.sessions ?? [];
  // A server without the agent runtime answers 404: that means "no sessions", not a failure.
  const unavailable = sessions.isError && (sessions.error as { status?: number }).status !== 404;
  return (
    <SectionCard title="Agent sessions" subtitle="Work the agent teams did for this project">
      {sessions.isPending ? (
        <LoadingSkeleton count={1} label="Loading agent sessions" />
      ) : unavailable ? (
        <Typography variant="body2" color="text.secondary">
          Agent sessions cannot be listed right now ({sessions.error?.message}).
        </Typography>
      ) : list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No agent session has run for this project yet. Start a team and choose this project.
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Agent sessions of this project">
            <TableHead>
              <TableRow>
                <TableCell>Team</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Phase</TableCell>
                <TableCell>Started</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((s) => (
                <TableRow key={s.sessionId} hover>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={teams.sessionPath(s.teamId, s.sessionId)}
                      underline="hover"
                    >
                      {teams.name(s.teamId)}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <Chip size="small" label={SESSION_STATUS_LABELS[s.status]} />
                  </TableCell>
                  <TableCell>
                    {s.phaseName ?? '—'} ({s.phase}/{s.totalPhases})
                  </TableCell>
                  <TableCell>{formatDateTime(s.startedAt ?? s.createdAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </SectionCard>
  );
}
