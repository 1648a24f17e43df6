import { Link as RouterLink } from 'react-router';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ActivityEvent } from '../../../../common/dashboard';
import { RECENT_EVENTS_SHOWN } from '../../../../common/constants';
import { formatDateTime } from '../shared/format';
import { useTeamDirectory } from '../shared/teams';
import { SectionCard } from '../../../components/SectionCard';

/**
 * What the panel shows when no session has logged anything yet: sample events, marked 'Example'
 * and explained, so nobody takes them for real work.
 */
export const EXAMPLE_EVENTS: ReadonlyArray<{ team: string; message: string; project: string }> = [
  {
    team: 'ideation',
    message: 'Generated 5 candidate research questions and ranked them by novelty',
    project: 'Minimum wage and local employment',
  },
  {
    team: 'literature',
    message: 'Retrieved 37 works from OpenAlex and screened them for relevance',
    project: 'Minimum wage and local employment',
  },
  {
    team: 'literature',
    message: 'Waiting for your review of the identified research gaps',
    project: 'Minimum wage and local employment',
  },
];

function EventRow({
  when,
  team,
  message,
  project,
  href,
  example,
}: {
  when?: string;
  team: string;
  message: string;
  project: string | null;
  href?: string;
  example?: boolean;
}) {
  const teams = useTeamDirectory();
  return (
    <ListItem disableGutters divider sx={{ display: 'block', py: 1 }}>
      <Stack
        useFlexGap
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
      >
        {example && <Chip size="small" label="Example" variant="outlined" color="warning" />}
        <Typography variant="caption" color="textSecondary" sx={{ fontWeight: 600 }}>
          {teams.name(team)}
        </Typography>
        {when && (
          <Typography variant="caption" color="textSecondary">
            {formatDateTime(when)}
          </Typography>
        )}
      </Stack>
      <Typography variant="body2" sx={{ mt: 0.25, overflowWrap: 'anywhere' }}>
        {href ? (
          <Link component={RouterLink} to={href} underline="hover" color="inherit">
            {message}
          </Link>
        ) : (
          message
        )}
      </Typography>
      {project && (
        <Typography variant="caption" color="textSecondary">
          {project}
        </Typography>
      )}
    </ListItem>
  );
}

/** The latest session events; labelled examples while there are none. */
export function RecentActivity({ events, note }: { events: ActivityEvent[]; note?: string }) {
  const shown = events.slice(0, RECENT_EVENTS_SHOWN);
  const teams = useTeamDirectory();
  return (
    <SectionCard
      fillHeight
      title="Recent Activity"
      subtitle="Latest events from your agent sessions"
    >
      {shown.length === 0 ? (
        <>
          <Typography
            variant="body2"
            color="textSecondary"
            sx={{ mb: 1 }}
            data-testid="activity-examples-caption"
          >
            {note ?? 'No agent session has run yet.'} These are examples of what will appear here
            once your teams start working.
          </Typography>
          <List disablePadding aria-label="Example activity" data-testid="activity-examples">
            {EXAMPLE_EVENTS.map((e) => (
              <EventRow
                key={e.message}
                team={e.team}
                message={e.message}
                project={e.project}
                example
              />
            ))}
          </List>
        </>
      ) : (
        <List disablePadding data-testid="recent-activity">
          {shown.map((e) => (
            <EventRow
              key={e.id}
              when={e.timestamp}
              team={e.team}
              message={e.message}
              project={e.projectTitle}
              href={teams.sessionPath(e.team, e.sessionId)}
            />
          ))}
        </List>
      )}
    </SectionCard>
  );
}
