import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import StorageOutlinedIcon from '@mui/icons-material/StorageOutlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import TimerOutlinedIcon from '@mui/icons-material/TimerOutlined';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import CategoryOutlinedIcon from '@mui/icons-material/CategoryOutlined';
import type { DashboardStats, OptionalMetric } from '../../../../common/dashboard';
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
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {detail}
        </Typography>
      </CardContent>
    </Card>
  );
}

/**
 * A percentage the server may not know: shows exactly what it gave. When the value is null the
 * card shows '—' and the server's reason as a tooltip (and as text for screen readers).
 */
function PercentMetric({ metric }: { metric: OptionalMetric }) {
  if (metric.value === null) {
    const reason = metric.reason ?? 'Not enough data yet.';
    return (
      <Tooltip title={reason}>
        <Box
          component="span"
          tabIndex={0}
          aria-label={`Not available: ${reason}`}
          sx={{ cursor: 'help' }}
        >
          —
        </Box>
      </Tooltip>
    );
  }
  const text = `${metric.value.toFixed(Number.isInteger(metric.value) ? 0 : 1)}%`;
  return metric.reason ? (
    <Tooltip title={metric.reason}>
      <Box component="span" tabIndex={0} sx={{ cursor: 'help' }}>
        {text}
      </Box>
    </Tooltip>
  ) : (
    <>{text}</>
  );
}

function basedOnText(metric: OptionalMetric, fallback: string): string {
  if (metric.value === null) return 'Not measured yet';
  if (metric.basedOn !== undefined)
    return `Across ${metric.basedOn} session${metric.basedOn === 1 ? '' : 's'}`;
  return fallback;
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
      detail: 'Working across your workflows now',
      icon: <SmartToyOutlinedIcon fontSize="small" />,
    },
    {
      testId: 'stat-time',
      label: 'Avg. time reduction',
      value: <PercentMetric metric={stats.averageTimeReduction} />,
      detail: basedOnText(stats.averageTimeReduction, 'Compared with manual work'),
      icon: <TimerOutlinedIcon fontSize="small" />,
    },
    {
      testId: 'stat-quality',
      label: 'Avg. quality improvement',
      value: <PercentMetric metric={stats.averageQualityImprovement} />,
      detail: basedOnText(stats.averageQualityImprovement, 'From reviewed checkpoints'),
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
