import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import type { Execution } from '../../../../common/agents';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { LoadingSkeleton } from '../../../components/LoadingSkeleton';
import { formatDateTime } from '../shared/format';
import { PhaseProgress, SessionStatusChip } from './labels';
import { TeamLinks } from './TeamLinks';
import { elapsedSeconds, formatElapsed } from './workflowModel';

export interface OverviewTabProps {
  executions: readonly Execution[];
  total: number;
  loading: boolean;
  error: unknown;
  onRetry(): void;
  selectedId: string | undefined;
  onSelect(sessionId: string): void;
  teamName(teamId: string): string;
  projectTitle(projectId: string | null): string;
  now: number;
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }}>
      <Typography variant="h4" component="p" sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
    </Paper>
  );
}

const hideOnPhone = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** Overview: the caller's sessions with status, team, project, progress and elapsed time. */
export function OverviewTab({
  executions,
  total,
  loading,
  error,
  onRetry,
  selectedId,
  onSelect,
  teamName,
  projectTitle,
  now,
}: OverviewTabProps) {
  if (loading) return <LoadingSkeleton label="Loading sessions" />;
  if (error) {
    return (
      <ErrorAlert
        title="Could not load your agent sessions"
        error={error}
        hint="Check your connection and try again."
        onRetry={onRetry}
      />
    );
  }
  if (executions.length === 0) {
    return (
      <EmptyState
        icon={<SmartToyOutlined />}
        title="No agent sessions yet"
        message="Start a team from its screen; its sessions, progress and logs appear here live."
        action={<TeamLinks />}
      />
    );
  }

  const count = (f: (e: Execution) => boolean) => executions.filter(f).length;
  const stats = [
    { label: 'Running now', value: count((e) => e.status === 'processing') },
    { label: 'Waiting for your input', value: count((e) => e.status === 'waiting_for_input') },
    { label: 'Completed', value: count((e) => e.status === 'completed') },
    { label: 'Stopped with an error', value: count((e) => e.status === 'error') },
  ];

  return (
    <Box>
      <Grid container spacing={2} sx={{ mb: 3 }}>
        {stats.map((s) => (
          <Grid key={s.label} size={{ xs: 6, md: 3 }}>
            <Stat {...s} />
          </Grid>
        ))}
      </Grid>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Your agent sessions">
          <TableHead>
            <TableRow>
              {/* relative: the hidden label's absolute box stays inside the table's scroller */}
              <TableCell padding="checkbox" sx={{ position: 'relative' }}>
                <Box component="span" sx={visuallyHidden}>
                  Selected
                </Box>
              </TableCell>
              <TableCell>Team</TableCell>
              <TableCell sx={hideOnPhone}>Project</TableCell>
              <TableCell>Status</TableCell>
              <TableCell sx={{ minWidth: 140 }}>Progress</TableCell>
              <TableCell>Elapsed</TableCell>
              <TableCell sx={hideOnPhone}>Started</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {executions.map((e) => {
              const selected = e.sessionId === selectedId;
              const name = teamName(e.teamId);
              const started = formatDateTime(e.startedAt ?? e.createdAt);
              return (
                <TableRow
                  key={e.sessionId}
                  hover
                  selected={selected}
                  onClick={() => onSelect(e.sessionId)}
                  sx={{ cursor: 'pointer' }}
                  data-session-id={e.sessionId}
                >
                  <TableCell padding="checkbox">
                    <Radio
                      size="small"
                      name="selected-session"
                      checked={selected}
                      onChange={() => onSelect(e.sessionId)}
                      slotProps={{
                        input: { 'aria-label': `Show the ${name} session started ${started}` },
                      }}
                    />
                  </TableCell>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {name}
                    </Typography>
                  </TableCell>
                  <TableCell sx={hideOnPhone}>{projectTitle(e.projectId)}</TableCell>
                  <TableCell>
                    <SessionStatusChip status={e.status} paused={e.paused} />
                  </TableCell>
                  <TableCell>
                    <PhaseProgress
                      status={e.status}
                      phase={e.phase}
                      totalPhases={e.totalPhases}
                      label={`Progress of the ${name} session`}
                    />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="elapsed">
                    {e.paused ? 'Paused' : formatElapsed(elapsedSeconds(e, now))}
                  </TableCell>
                  <TableCell sx={{ ...hideOnPhone, whiteSpace: 'nowrap' }}>{started}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {total > executions.length && (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          Showing your latest {executions.length} of {total} sessions.
        </Typography>
      )}
    </Box>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: 1,
  margin: -1,
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: 1,
} as const;
