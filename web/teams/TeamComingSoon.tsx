import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';

/** Shown on a team's route until its screen is built. */
export function TeamComingSoon({ team }: { team: string }) {
  return (
    <>
      <PageHeader title={`${team} Team`} subtitle="An AI research team for your project." />
      <EmptyState
        icon={<ConstructionOutlined />}
        message={`The ${team} team screen is coming soon.`}
        action={
          <Button component={RouterLink} to="/app" variant="contained">
            Back to the Dashboard
          </Button>
        }
      />
    </>
  );
}
