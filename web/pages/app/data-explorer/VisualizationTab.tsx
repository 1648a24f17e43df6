import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CHART_AGGREGATES,
  MAX_CHART_ENTITIES,
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
  const [seriesBy, setSeriesBy] = useState('');
  const [entities, setEntities] = useState<string[]>([]);
  const [logScale, setLogScale] = useState(false);
  const [rightAxis, setRightAxis] = useState('');
  const columns = useDatasetColumns(datasetId || undefined);
  const chart = useChart();
  const perEntity = type === 'line' && seriesBy !== '';
  // One line per entity draws one measure.
  const need = perEntity ? { ...NEEDS.line, y: 'one' as const } : NEEDS[type];
  const numeric = columns.columns.filter((c) => isNumericType(c.type));
  const xChoices = need.x === 'numeric' ? numeric : columns.columns;

  const draw = () => {
    if (!datasetId) return;
    chart.mutate({
      id: datasetId,
      request: {
        type,
        ...(need.x ? { x } : {}),
        y: need.y === 'none' ? [] : need.y === 'one' ? y.slice(0, 1) : y,
        aggregate,
        ...(perEntity ? { seriesBy, ...(entities.length > 0 ? { entities } : {}) } : {}),
      },
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
              setSeriesBy('');
              setEntities([]);
              setRightAxis('');
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
          {type === 'line' && (
            <TextField
              select
              size="small"
              label="One line per"
              value={columns.columns.some((c) => c.name === seriesBy) ? seriesBy : ''}
              onChange={(e) => setSeriesBy(e.target.value)}
              sx={{ minWidth: 200 }}
            >
              <MenuItem value="">(no entity: one line per measure)</MenuItem>
              {columns.columns
                .filter((c) => c.name !== x)
                .map((c) => (
                  <MenuItem key={c.name} value={c.name}>
                    {c.name}
                  </MenuItem>
                ))}
            </TextField>
          )}
          {perEntity && (
            <Autocomplete
              multiple
              freeSolo
              size="small"
              options={[]}
              value={entities}
              onChange={(_, v) => setEntities(v.slice(0, MAX_CHART_ENTITIES))}
              renderValue={(values, getItemProps) =>
                values.map((v, index) => {
                  const { key, ...rest } = getItemProps({ index });
                  return <Chip key={key} size="small" label={v} {...rest} />;
                })
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={`${seriesBy} values to draw (optional)`}
                  helperText="Type a value and press Enter; empty: the 12 with the most values"
                />
              )}
              sx={{ minWidth: 280, flexGrow: 1 }}
            />
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
          {chart.data.kind === 'line' && (
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ mb: 1, alignItems: { sm: 'center' } }}
            >
              <FormControlLabel
                control={
                  <Switch checked={logScale} onChange={(e) => setLogScale(e.target.checked)} />
                }
                label="Log scale"
                sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              />
              {chart.data.series.length >= 2 && !chart.data.seriesBy && (
                <TextField
                  select
                  size="small"
                  label="Right axis"
                  value={chart.data.series.some((s) => s.name === rightAxis) ? rightAxis : ''}
                  onChange={(e) => setRightAxis(e.target.value)}
                  sx={{ minWidth: 200, maxWidth: { sm: 320 } }}
                >
                  <MenuItem value="">(none: one axis)</MenuItem>
                  {chart.data.series.map((s) => (
                    <MenuItem key={s.name} value={s.name}>
                      {s.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            </Stack>
          )}
          <ChartView
            spec={chart.data}
            height={340}
            options={{ logScale, rightAxis: rightAxis ? [rightAxis] : [] }}
            downloadable
          />
        </Paper>
      )}
      {!datasetId && (
        <Typography color="textSecondary">
          Choose a dataset with stored data (added by upload, from an API, or by the Data team) and
          the columns to chart.
        </Typography>
      )}
    </Stack>
  );
}
