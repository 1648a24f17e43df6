import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import Skeleton from '@mui/material/Skeleton';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import { ErrorAlert, LoadingSkeleton, PageHeader } from '../../components';
import { useDashboard } from '../../api/queries/dashboard';
import { StatCards } from './overview/StatCards';
import { TeamsLauncher } from './overview/TeamsLauncher';
import { RecentProjects } from './overview/RecentProjects';
import { RecentActivity } from './overview/RecentActivity';
import { ActiveWorkflowsTable } from './overview/ActiveWorkflowsTable';

// The chart library is the heaviest part of the dashboard: it loads after the numbers show.
const ResearchAreaChart = lazy(() =>
  import('./overview/ResearchAreaChart').then((m) => ({ default: m.ResearchAreaChart })),
);

/** Dashboard: everything comes from GET /api/dashboard. */
export default function OverviewPage() {
  const dashboard = useDashboard();
  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle="AI-powered economic research at your fingertips"
        actions={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            component={RouterLink}
            to="/app/project-manager?new=1"
          >
            New Project
          </Button>
        }
      />
      {dashboard.isPending ? (
        <Stack spacing={3}>
          <LoadingSkeleton variant="cards" count={6} label="Loading dashboard" />
          <LoadingSkeleton variant="rows" count={4} />
        </Stack>
      ) : dashboard.isError ? (
        <ErrorAlert
          title="Could not load the dashboard"
          error={dashboard.error}
          hint="Check your connection and try again."
          onRetry={() => void dashboard.refetch()}
        />
      ) : (
        <Stack spacing={3}>
          <StatCards stats={dashboard.data.stats} />
          <TeamsLauncher />
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, lg: 6 }}>
              <RecentProjects projects={dashboard.data.recentProjects} />
            </Grid>
            <Grid size={{ xs: 12, lg: 6 }}>
              <Suspense
                fallback={<Skeleton variant="rounded" height={240} aria-label="Loading chart" />}
              >
                <ResearchAreaChart data={dashboard.data.researchAreaDistribution} />
              </Suspense>
            </Grid>
          </Grid>
          <ActiveWorkflowsTable
            workflows={dashboard.data.activeWorkflows}
            note={dashboard.data.sessionsNote}
          />
          <RecentActivity
            events={dashboard.data.recentActivity}
            note={dashboard.data.sessionsNote}
          />
        </Stack>
      )}
    </>
  );
}
