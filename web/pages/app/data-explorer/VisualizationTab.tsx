import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CHART_AGGREGATES,
  VISUALIZATION_TYPES,
  type ChartAggregate,
  type VisualizationType,
} from '../../../../common/teams/data';
import { ChartView } from '../../../components/ChartView';
import { DatasetPicker } from './DatasetPicker';
import { isNumericType, useChart, useDatasetColumns } from './explorerApi';

const TYPE_LABELS: Record<VisualizationType, string> = {
  line: 'Line',
  bar: 'Bar',
  scatter: 'Scatter',
  pie: 'Pie',
  histogram: 'Histogram',
  heatmap: 'Correlation heatmap',
  network: 'Correlation network',
};

/** What each chart type asks for. */
const NEEDS: Record<
  VisualizationType,
  { x: 'any' | 'numeric' | null; y: 'none' | 'one' | 'optional' | 'many'; xLabel: string }
> = {
  line: { x: 'any', y: 'many', xLabel: 'X axis (time or order)' },
  bar: { x: 'any', y: 'optional', xLabel: 'Category' },
  scatter: { x: 'numeric', y: 'one', xLabel: 'X axis' },
  pie: { x: 'any', y: 'optional', xLabel: 'Category' },
  histogram: { x: 'numeric', y: 'none', xLabel: 'Column' },
  heatmap: { x: null, y: 'many', xLabel: '' },
  network: { x: null, y: 'many', xLabel: '' },
};

/** Data Visualization: any columns of a stored dataset, drawn with the chart types that fit. */
export function VisualizationTab() {
  const [datasetId, setDatasetId] = useState('');
  const [type, setType] = useState<VisualizationType>('line');
  const [x, setX] = useState('');
  const [y, setY] = useState<string[]>([]);
  const [aggregate, setAggregate] = useState<ChartAggregate>('mean');
  const columns = useDatasetColumns(datasetId || undefined);
  const chart = useChart();
  const need = NEEDS[type];
  const numeric = columns.columns.filter((c) => isNumericType(c.type));
  const xChoices = need.x === 'numeric' ? numeric : columns.columns;

  const draw = () => {
    if (!datasetId) return;
    chart.mutate({
      id: datasetId,
      request: { type, ...(need.x ? { x } : {}), y: need.y === 'none' ? [] : y, aggregate },
    });
  };

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ flexWrap: 'wrap', rowGap: 1 }}
        >
          <DatasetPicker
            label="Dataset"
            value={datasetId}
            onChange={(id) => {
              setDatasetId(id);
              setX('');
              setY([]);
              chart.reset();
            }}
          />
          <TextField
            select
            size="small"
            label="Chart type"
            value={type}
            onChange={(e) => setType(e.target.value as VisualizationType)}
            sx={{ minWidth: 180 }}
          >
            {VISUALIZATION_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {TYPE_LABELS[t]}
              </MenuItem>
            ))}
          </TextField>
          {need.x && (
            <TextField
              select
              size="small"
              label={need.xLabel}
              value={xChoices.some((c) => c.name === x) ? x : ''}
              onChange={(e) => setX(e.target.value)}
              sx={{ minWidth: 180 }}
            >
              {xChoices.map((c) => (
                <MenuItem key={c.name} value={c.name}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {need.y !== 'none' && (
            <TextField
              select
              size="small"
              label={
                need.y === 'one'
                  ? 'Y axis'
                  : need.y === 'optional'
                    ? 'Value (optional: else rows)'
                    : 'Numeric columns'
              }
              value={need.y === 'many' ? y : (y[0] ?? '')}
              onChange={(e) => {
                const v = e.target.value as unknown;
                setY(Array.isArray(v) ? (v as string[]) : v ? [String(v)] : []);
              }}
              slotProps={{ select: { multiple: need.y === 'many' } }}
              sx={{ minWidth: 220 }}
            >
              {need.y === 'optional' && <MenuItem value="">(count rows)</MenuItem>}
              {numeric.map((c) => (
                <MenuItem key={c.name} value={c.name}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {(type === 'line' || type === 'bar' || type === 'pie') && (
            <TextField
              select
              size="small"
              label="Aggregate"
              value={aggregate}
              onChange={(e) => setAggregate(e.target.value as ChartAggregate)}
              sx={{ minWidth: 130 }}
            >
              {CHART_AGGREGATES.map((a) => (
                <MenuItem key={a} value={a}>
                  {a}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
        <Button
          variant="contained"
          sx={{ mt: 1 }}
          onClick={draw}
          disabled={!datasetId || chart.isPending}
          startIcon={chart.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          Draw chart
        </Button>
      </Paper>
      {columns.isError && <Alert severity="warning">{columns.error.message}</Alert>}
      {chart.isError && <Alert severity="error">{chart.error.message}</Alert>}
      {chart.data && (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <ChartView spec={chart.data} height={340} />
        </Paper>
      )}
      {!datasetId && (
        <Typography color="text.secondary">
          Choose a dataset with stored data (added by upload, from an API, or by the Data team) and
          the columns to chart.
        </Typography>
      )}
    </Stack>
  );
}
