import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import StorageOutlinedIcon from '@mui/icons-material/StorageOutlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import TaskAltOutlinedIcon from '@mui/icons-material/TaskAltOutlined';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import CategoryOutlinedIcon from '@mui/icons-material/CategoryOutlined';
import type { DashboardStats } from '../../../../common/dashboard';
import { formatNumber } from '../shared/format';

interface StatCardProps {
  label: string;
  value: ReactNode;
  detail: ReactNode;
  icon: ReactNode;
  testId: string;
}

function StatCard({ label, value, detail, icon, testId }: StatCardProps) {
  return (
    <Card sx={{ height: '100%' }} data-testid={testId}>
      <CardContent>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', mb: 1, color: 'text.secondary' }}
        >
          <Box aria-hidden sx={{ display: 'flex', color: 'primary.main' }}>
            {icon}
          </Box>
          <Typography variant="body2" component="h3" sx={{ fontWeight: 600 }}>
            {label}
          </Typography>
        </Stack>
        <Typography
          variant="h4"
          component="p"
          sx={{ fontWeight: 700 }}
          data-testid={`${testId}-value`}
        >
          {value}
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
          {detail}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** The six stat cards of the dashboard, all from GET /api/dashboard. */
export function StatCards({ stats }: { stats: DashboardStats }) {
  const cards: StatCardProps[] = [
    {
      testId: 'stat-projects',
      label: 'Total projects',
      value: formatNumber(stats.totalProjects),
      detail: `${formatNumber(stats.activeProjects)} active`,
      icon: <FolderOutlinedIcon fontSize="small" />,
    },
    {
      testId: 'stat-datasets',
      label: 'Datasets',
      value: formatNumber(stats.datasets),
      detail: `${formatNumber(stats.datasetsInUse)} in use`,
      icon: <StorageOutlinedIcon fontSize="small" />,
    },
    {
      testId: 'stat-agents',
      label: 'Active agents',
      value: formatNumber(stats.activeAgents),
      detail: 'Sessions running now',
      icon: <SmartToyOutlinedIcon fontSize="small" />,
    },
    {
      testId: 'stat-sessions',
      label: 'Sessions completed',
      value: formatNumber(stats.work.sessionsCompleted),
      detail: `${formatNumber(stats.work.checkpointsAnswered)} checkpoints answered`,
      icon: <TaskAltOutlinedIcon fontSize="small" />,
    },
    {
      testId: 'stat-verified',
      label: 'References verified',
      value: formatNumber(stats.work.referencesVerified),
      detail:
        `${formatNumber(stats.work.datasetsProfiled)} datasets profiled, ` +
        `${formatNumber(stats.work.modelsSolved)} models solved, ` +
        `${formatNumber(stats.work.codeRunsPassed)} code runs passed`,
      icon: <InsightsOutlinedIcon fontSize="small" />,
    },
    {
      testId: 'stat-areas',
      label: 'Research areas',
      value: formatNumber(stats.researchAreas),
      detail: 'Distinct areas across projects',
      icon: <CategoryOutlinedIcon fontSize="small" />,
    },
  ];
  return (
    <Grid container spacing={2} component="section" aria-label="Key figures">
      {cards.map((card) => (
        <Grid key={card.testId} size={{ xs: 6, md: 4, xl: 2 }}>
          <StatCard {...card} />
        </Grid>
      ))}
    </Grid>
  );
}
