import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { SESSION_STATUS_LABELS, type Execution } from '../../../../common/agents';
import { StatusChip } from '../../../teams/shared/StatusChip';
import { formatDateTime } from '../shared/format';
import { useTeamDirectory } from '../shared/teams';
import { PhaseProgress } from './labels';
import { formatElapsed } from './workflowModel';

export interface SelectedSessionCardProps {
  /** The selected session, with the live state merged in. */
  session: Execution;
  phaseName: string | null;
  elapsed: number | null;
  executions: readonly Execution[];
  onSelect(sessionId: string): void;
  teamName(teamId: string): string;
  projectTitle(projectId: string | null): string;
}

/** The session the page's Start/Pause and Reset buttons drive, with its live state. */
export function SelectedSessionCard({
  session,
  phaseName,
  elapsed,
  executions,
  onSelect,
  teamName,
  projectTitle,
}: SelectedSessionCardProps) {
  const directory = useTeamDirectory();
  const name = teamName(session.teamId);
  const phaseText =
    session.phase === 0
      ? 'Not started'
      : `Phase ${session.phase} of ${session.totalPhases}${phaseName ? `: ${phaseName}` : ''}`;
  return (
    <Paper
      component="section"
      aria-label="Selected session"
      variant="outlined"
      sx={{ p: { xs: 2, md: 2.5 }, mb: 3 }}
    >
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ alignItems: { md: 'center' } }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Typography variant="h6" component="h2">
              {name}
            </Typography>
            <StatusChip status={session.status} paused={session.paused} />
          </Stack>
          <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
            {projectTitle(session.projectId)} · started{' '}
            {formatDateTime(session.startedAt ?? session.createdAt)}
          </Typography>
          <Box sx={{ mt: 1.5, maxWidth: 520 }}>
            <Typography variant="body2" sx={{ mb: 0.5 }}>
              {phaseText}
            </Typography>
            <PhaseProgress
              status={session.status}
              phase={session.phase}
              totalPhases={session.totalPhases}
              label={`Progress of the selected ${name} session`}
            />
          </Box>
          {session.status === 'error' && session.error && (
            <Typography variant="body2" color="error" sx={{ mt: 1 }}>
              {session.error}
            </Typography>
          )}
        </Box>
        <Stack spacing={1.5} sx={{ minWidth: { md: 280 } }}>
          <Box>
            <Typography variant="overline" color="textSecondary" component="p">
              Elapsed
            </Typography>
            <Typography
              variant="h5"
              component="p"
              data-testid="selected-elapsed"
              sx={{ fontVariantNumeric: 'tabular-nums' }}
            >
              {formatElapsed(elapsed)}
            </Typography>
          </Box>
          <TextField
            select
            size="small"
            label="Session"
            value={session.sessionId}
            onChange={(e) => onSelect(e.target.value)}
          >
            {executions.map((e) => (
              <MenuItem key={e.sessionId} value={e.sessionId}>
                {teamName(e.teamId)} · {formatDateTime(e.startedAt ?? e.createdAt)} ·{' '}
                {e.status === 'idle' && e.paused ? 'Paused' : SESSION_STATUS_LABELS[e.status]}
              </MenuItem>
            ))}
          </TextField>
          {directory.hasScreen(session.teamId) && (
            <Button
              component={RouterLink}
              to={directory.sessionPath(session.teamId, session.sessionId)}
              size="small"
              endIcon={<OpenInNew />}
              sx={{ alignSelf: 'flex-start' }}
            >
              Open on the {name} screen
            </Button>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
