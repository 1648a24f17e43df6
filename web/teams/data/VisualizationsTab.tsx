import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { ChartSpec } from '../../../common/teams/data';
import { lazy, Suspense } from 'react';
import Skeleton from '@mui/material/Skeleton';

// The chart library is most of the screen's weight: it loads with the first chart shown.
const ChartView = lazy(() =>
  import('../../components/ChartView').then((m) => ({ default: m.ChartView })),
);

/** The Visualizations tab: a card per chart, each with its title and description. */
export function VisualizationsTab({ charts }: { charts: ChartSpec[] | undefined }) {
  if (!charts || charts.length === 0) {
    return (
      <Typography color="textSecondary">
        Charts of the data appear here once the analysis has run: distributions, the time series,
        correlations and missing values.
      </Typography>
    );
  }
  return (
    <Grid container spacing={2}>
      {charts.map((c) => (
        <Grid key={c.id} size={{ xs: 12, lg: c.kind === 'heatmap' || c.kind === 'line' ? 12 : 6 }}>
          <Card variant="outlined" component="article" aria-label={c.title}>
            <CardHeader
              title={c.title}
              subheader={c.description}
              slotProps={{
                title: { variant: 'subtitle1', component: 'h3' },
                subheader: { variant: 'body2' },
              }}
            />
            <CardContent sx={{ pt: 0 }}>
              <Suspense fallback={<Skeleton variant="rectangular" height={240} />}>
                <ChartView spec={c} showHeading={false} />
              </Suspense>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
