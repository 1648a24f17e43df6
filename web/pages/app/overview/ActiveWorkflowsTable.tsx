import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import type { ActiveWorkflow } from '../../../../common/dashboard';
import { ACTIVE_WORKFLOWS_LISTED } from '../../../../common/constants';
import { SESSION_STATUS_LABELS, type SessionStatus } from '../../../../common/agents';
import { EmptyState } from '../../../components';
import { humanize } from '../shared/format';
import { useTeamDirectory } from '../shared/teams';
import { SectionCard } from '../../../components/SectionCard';

function statusLabel(status: string): string {
  return SESSION_STATUS_LABELS[status as SessionStatus] ?? humanize(status);
}

function statusColor(status: string) {
  if (status === 'processing') return 'info' as const;
  if (status === 'waiting_for_input') return 'warning' as const;
  if (status === 'error') return 'error' as const;
  return 'default' as const;
}

/** Sessions that are not completed: the first ACTIVE_WORKFLOWS_LISTED (5). */
export function ActiveWorkflowsTable({
  workflows,
  note,
}: {
  workflows: ActiveWorkflow[];
  note?: string;
}) {
  const rows = workflows.slice(0, ACTIVE_WORKFLOWS_LISTED);
  const teams = useTeamDirectory();
  return (
    <SectionCard fillHeight title="Active Agentic Workflows" subtitle="Agent sessions in progress">
      {rows.length === 0 ? (
        <EmptyState
          icon={<AccountTreeOutlinedIcon />}
          message={note ?? 'No workflow is running. Start an agent team to see its progress here.'}
          action={
            <Button variant="outlined" component={RouterLink} to="/app/ideation-team">
              Start with Ideation
            </Button>
          }
        />
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Active agentic workflows" data-testid="active-workflows">
            <TableHead>
              <TableRow>
                <TableCell>Workflow</TableCell>
                <TableCell>Project</TableCell>
                <TableCell align="right">Active agents</TableCell>
                <TableCell>Status</TableCell>
                <TableCell sx={{ minWidth: 140 }}>Progress</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((w) => (
                <TableRow key={w.sessionId} hover>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={teams.sessionPath(w.team, w.sessionId)}
                      underline="hover"
                    >
                      {w.workflow}
                    </Link>
                  </TableCell>
                  <TableCell>
                    {w.projectId && w.project ? (
                      <Link
                        component={RouterLink}
                        to={`/app/projects/${w.projectId}`}
                        underline="hover"
                      >
                        {w.project}
                      </Link>
                    ) : (
                      <Typography variant="body2" color="textSecondary" component="span">
                        No project
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right">{w.activeAgents}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={statusLabel(w.status)}
                      color={statusColor(w.status)}
                    />
                  </TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <LinearProgress
                        variant="determinate"
                        value={w.progress}
                        sx={{ flexGrow: 1 }}
                        aria-label={`${w.workflow} progress`}
                      />
                      <Typography variant="caption">{Math.round(w.progress)}%</Typography>
                    </Box>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </SectionCard>
  );
}
