import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import type { TeamInfo } from '../../../../common/agents';
import { teamNoun } from '../../../../common/text';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { LoadingSkeleton } from '../../../components/LoadingSkeleton';
import { useTeamDirectory } from '../shared/teams';
import { ActivityChip } from './labels';
import type { AgentRow } from './workflowModel';

export interface AgentTeamsTabProps {
  rows: readonly AgentRow[];
  teams: readonly TeamInfo[];
  loading: boolean;
  error: unknown;
  onRetry(): void;
  teamName(teamId: string): string;
}

/** Agent Teams: the server's agent registry with each agent's activity from real sessions. */
export function AgentTeamsTab({
  rows,
  teams,
  loading,
  error,
  onRetry,
  teamName,
}: AgentTeamsTabProps) {
  const directory = useTeamDirectory();
  if (loading) return <LoadingSkeleton variant="cards" count={3} label="Loading agent teams" />;
  if (error) {
    return <ErrorAlert title="Could not load the agent teams" error={error} onRetry={onRetry} />;
  }
  if (rows.length === 0) {
    return (
      <EmptyState
        icon={<GroupsOutlined />}
        title="No agent teams on this server yet"
        message="Teams appear here as soon as the server runs them."
      />
    );
  }
  return (
    <Grid container spacing={2}>
      {rows.map(({ agent, activity, tasks, completed, running, waiting }) => {
        const team = teams.find((t) => t.id === agent.team);
        const headingId = `agent-${agent.id}`;
        return (
          <Grid key={agent.id} size={{ xs: 12, sm: 6, lg: 4 }}>
            <Card
              component="article"
              aria-labelledby={headingId}
              sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
            >
              <CardContent sx={{ flex: 1 }}>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 1 }}
                >
                  <Stack sx={{ minWidth: 0 }}>
                    <Typography id={headingId} variant="h6" component="h3">
                      {agent.name}
                    </Typography>
                    <Typography variant="body2" color="textSecondary">
                      {teamNoun(teamName(agent.team))} · {agent.phases.length}{' '}
                      {agent.phases.length === 1 ? 'phase' : 'phases'}
                    </Typography>
                  </Stack>
                  <ActivityChip activity={activity} />
                </Stack>
                <Typography variant="body2" sx={{ mb: 1.5 }}>
                  {agent.description}
                </Typography>
                <Typography variant="body2" color="textSecondary">
                  {tasks} {tasks === 1 ? 'session' : 'sessions'} · {completed} completed
                  {running > 0 && ` · ${running} running`}
                  {waiting > 0 && ` · ${waiting} waiting or paused`}
                </Typography>
                {agent.status === 'unavailable' && (
                  <Typography variant="body2" color="warning" sx={{ mt: 1 }}>
                    Unavailable: {team?.reason ?? 'this team cannot run on this server right now'}
                  </Typography>
                )}
              </CardContent>
              {directory.hasScreen(agent.team) && (
                <CardActions>
                  <Button component={RouterLink} to={directory.path(agent.team)} size="small">
                    Open {teamName(agent.team)} screen
                  </Button>
                </CardActions>
              )}
            </Card>
          </Grid>
        );
      })}
    </Grid>
  );
}
