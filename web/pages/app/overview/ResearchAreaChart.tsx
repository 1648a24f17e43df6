import { BarChart } from '@mui/x-charts/BarChart';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { visuallyHidden } from '@mui/utils';
import { SectionCard } from '../../../components/SectionCard';

export interface AreaCount {
  area: string;
  count: number;
}

/** Projects per research area as a horizontal bar chart with labelled axes. */
export function ResearchAreaChart({ data }: { data: AreaCount[] }) {
  const theme = useTheme();
  const sorted = [...data].sort((a, b) => b.count - a.count || a.area.localeCompare(b.area));
  const height = Math.max(180, 56 + sorted.length * 40);
  return (
    <SectionCard fillHeight title="Research Areas" subtitle="Number of projects per research area">
      {sorted.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          No projects yet: the distribution appears once you create projects.
        </Typography>
      ) : (
        <>
          <BarChart
            dataset={sorted.map((d) => ({ area: d.area, count: d.count }))}
            layout="horizontal"
            height={height}
            yAxis={[
              {
                scaleType: 'band',
                dataKey: 'area',
                label: 'Research area',
                width: 'auto',
                tickLabelStyle: { fontSize: 12 },
              },
            ]}
            xAxis={[{ label: 'Projects (count)', tickMinStep: 1, min: 0 }]}
            series={[
              {
                dataKey: 'count',
                label: 'Projects',
                color: (theme.vars ?? theme).palette.primary.main,
              },
            ]}
            hideLegend
            margin={{ right: 16 }}
          />
          {/* The same numbers as text, for screen readers and for copying. */}
          <Typography component="ul" sx={visuallyHidden}>
            {sorted.map((d) => (
              <li key={d.area}>
                {d.area}: {d.count} project{d.count === 1 ? '' : 's'}
              </li>
            ))}
          </Typography>
        </>
      )}
    </SectionCard>
  );
}
