import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { TEAMS } from '../../../../common/constants';
import { teamPath } from '../shared/teams';

/** Buttons to the team screens: where sessions are started. */
export function TeamLinks() {
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', justifyContent: 'center' }}
      component="nav"
      aria-label="Agent team screens"
    >
      {TEAMS.filter((t) => t.id !== 'customized').map((t) => (
        <Button
          key={t.id}
          component={RouterLink}
          to={teamPath(t.id)}
          variant="outlined"
          size="small"
        >
          {t.name}
        </Button>
      ))}
    </Stack>
  );
}

/** Whether the product has a screen for this team (the runtime's test team has none). */
export function hasTeamScreen(teamId: string): boolean {
  return TEAMS.some((t) => t.id === teamId && t.id !== 'customized');
}
