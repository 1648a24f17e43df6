import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Autorenew from '@mui/icons-material/Autorenew';
import type { Execution } from '../../../../common/agents';
import type { Project } from '../../../../common/projects';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { LoadingSkeleton } from '../../../components/LoadingSkeleton';
import { useTeamDirectory } from '../shared/teams';
import { StageStatusChip } from './labels';
import { stageRows, type StageRow, type StageStatus } from './workflowModel';

export interface ResearchStagesTabProps {
  projects: readonly Project[];
  projectsLoading: boolean;
  projectsError: unknown;
  onRetry(): void;
  projectId: string | undefined;
  onProjectChange(projectId: string): void;
  /** The chosen project, fresh from GET /api/projects/{id}. */
  project: Project | undefined;
  /** The chosen project's sessions. */
  projectExecutions: readonly Execution[];
  teamName(teamId: string): string;
}

const ICONS: Record<StageStatus, React.ReactNode> = {
  completed: <CheckCircle color="success" />,
  in_progress: <Autorenew color="info" />,
  pending: <RadioButtonUnchecked color="disabled" />,
};

/** Research Stages: the nine stages of a project with their real status. */
export function ResearchStagesTab({
  projects,
  projectsLoading,
  projectsError,
  onRetry,
  projectId,
  onProjectChange,
  project,
  projectExecutions,
  teamName,
}: ResearchStagesTabProps) {
  const directory = useTeamDirectory();
  if (projectsLoading) return <LoadingSkeleton label="Loading projects" />;
  if (projectsError) {
    return (
      <ErrorAlert title="Could not load your projects" error={projectsError} onRetry={onRetry} />
    );
  }
  if (projects.length === 0) {
    return (
      <EmptyState
        icon={<FolderOpenOutlined />}
        title="No projects yet"
        message="Create a project to follow its research stages, from ideation to replication."
        action={
          <Button component={RouterLink} to="/app/project-manager" variant="contained">
            Open Project Manager
          </Button>
        }
      />
    );
  }
  const rows = project
    ? stageRows(project.workflowStage, projectExecutions, directory.manifests)
    : [];
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Project"
        value={projectId ?? ''}
        onChange={(e) => onProjectChange(e.target.value)}
        sx={{ maxWidth: 480 }}
      >
        {projects.map((p) => (
          <MenuItem key={p.id} value={p.id}>
            {p.title}
          </MenuItem>
        ))}
      </TextField>
      {!project ? (
        <LoadingSkeleton label="Loading the project" count={3} />
      ) : (
        <Paper variant="outlined">
          <List aria-label={`Research stages of ${project.title}`} disablePadding>
            {rows.map((row, i) => (
              <ListItem
                key={row.stage}
                divider={i < rows.length - 1}
                data-stage={row.stage}
                data-status={row.status}
                sx={{ py: 1.5, gap: 2, flexWrap: 'wrap' }}
              >
                <Box aria-hidden sx={{ display: 'flex' }}>
                  {ICONS[row.status]}
                </Box>
                <Box sx={{ flex: 1, minWidth: 160 }}>
                  <Typography sx={{ fontWeight: 600 }}>
                    {i + 1}. {row.label}
                  </Typography>
                  <Typography variant="body2" color="textSecondary">
                    {stageSummary(row, teamName)}
                  </Typography>
                </Box>
                <StageStatusChip status={row.status} />
                {row.teamIds.filter(directory.hasScreen).map((teamId) => (
                  <Button
                    key={teamId}
                    component={RouterLink}
                    to={directory.path(teamId)}
                    size="small"
                  >
                    Open {teamName(teamId)}
                    <Box component="span" sx={visuallyHiddenSx}>
                      {' '}
                      screen
                    </Box>
                  </Button>
                ))}
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
    </Stack>
  );
}

/** What a stage row says about its teams' sessions of the project. */
function stageSummary(row: StageRow, teamName: (teamId: string) => string): string {
  if (row.teamIds.length === 0) {
    return "No agent team works in this stage; its status follows the project's stage";
  }
  const names = row.teamIds.map(teamName).join(' or ');
  if (row.sessions === 0) return `No ${names} session for this project yet`;
  return (
    `${row.sessions} ${names} ${row.sessions === 1 ? 'session' : 'sessions'}` +
    (row.live > 0 ? `, ${row.live} running` : '') +
    (row.completedSessions > 0 ? `, ${row.completedSessions} completed` : '')
  );
}

const visuallyHiddenSx = {
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
