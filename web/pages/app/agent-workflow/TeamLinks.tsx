import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTeamDirectory } from '../shared/teams';

/** Buttons to the team screens (one per team manifest): where sessions are started. */
export function TeamLinks() {
  const teams = useTeamDirectory();
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', justifyContent: 'center' }}
      component="nav"
      aria-label="Agent team screens"
    >
      {teams.manifests.map((m) => (
        <Button
          key={m.id}
          component={RouterLink}
          to={teams.path(m.id)}
          variant="outlined"
          size="small"
        >
          {m.name}
        </Button>
      ))}
    </Stack>
  );
}
