import { LineChart } from '@mui/x-charts/LineChart';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export interface ChartSeries {
  label: string;
  data: number[];
}

/** A line chart with a caption (the figure's accessible name) and labelled axes. */
export function LineChartFigure({
  title,
  x,
  series,
  xLabel,
  yLabel,
  height = 280,
}: {
  title: string;
  x: number[];
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  height?: number;
}) {
  return (
    <Box component="figure" sx={{ m: 0 }} aria-label={title}>
      <Typography component="figcaption" variant="subtitle2" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      <LineChart
        height={height}
        xAxis={[{ data: x, label: xLabel, scaleType: 'linear', tickMinStep: 1 }]}
        yAxis={[{ label: yLabel, width: 'auto' }]}
        series={series.map((s, i) => ({
          id: `s${i}`,
          data: s.data,
          label: s.label,
          showMark: false,
          curve: 'linear' as const,
        }))}
        margin={{ right: 16 }}
      />
    </Box>
  );
}
