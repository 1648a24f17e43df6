import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import { EmptyState } from '../../../components';

/**
 * An honest placeholder for the Data Explorer tabs whose tools come with the Data team: no fake
 * charts, one sentence and the way to get there.
 */
export function ComingWithDataTeam({ icon, what }: { icon: ReactNode; what: string }) {
  return (
    <EmptyState
      icon={icon}
      title="Arrives with the Data team"
      message={`${what} will be available here when the Data team is ready. Until then, the Data team screen can already fetch and profile datasets.`}
      action={
        <Button variant="outlined" component={RouterLink} to="/app/data-team">
          Open the Data team
        </Button>
      }
    />
  );
}
