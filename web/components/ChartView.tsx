import { useRef, useState, type RefObject } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { ScatterChart } from '@mui/x-charts/ScatterChart';
import type { ChartSpec } from '../../common/teams/data';
import { chartSvgIn, chartSvgText, downloadChartPng, downloadChartSvg } from './chartExport';
import { fmtNumber } from './formatNumber';

/**
 * One chart of computed data (common/teams/data.ts ChartSpec) drawn with MUI X Charts:
 * histograms and bars as bar charts, lines, scatter and pie; the correlation heatmap as a grid
 * of coloured cells (MUI X has no heatmap outside its Pro package) and the correlation network
 * as a circle of nodes. Every chart has its title as the figure's name.
 */

function Heatmap({ spec }: { spec: Extract<ChartSpec, { kind: 'heatmap' }> }) {
  const theme = useTheme();
  const n = spec.columns.length;
  const colour = (v: number | null) => {
    if (v === null) return theme.palette.action.disabledBackground;
    // Blue for negative, red for positive, stronger with |r|.
    const alpha = Math.min(1, Math.abs(v));
    return v >= 0 ? `rgba(198, 40, 40, ${alpha})` : `rgba(21, 101, 192, ${alpha})`;
  };
  return (
    // Scrolls sideways on narrow screens: focusable so the keyboard can scroll it too.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0}>
      <Box
        role="table"
        aria-label={spec.title}
        sx={{
          display: 'grid',
          gridTemplateColumns: `minmax(80px, max-content) repeat(${n}, minmax(38px, 1fr))`,
          gap: '2px',
          fontSize: 12,
          minWidth: 80 + n * 40,
        }}
      >
        <Box role="row" sx={{ display: 'contents' }}>
          <Box role="columnheader" />
          {spec.columns.map((c) => (
            <Box
              key={c}
              role="columnheader"
              title={c}
              sx={{
                writingMode: 'vertical-rl',
                transform: 'rotate(180deg)',
                maxHeight: 110,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
                justifySelf: 'center',
              }}
            >
              {c}
            </Box>
          ))}
        </Box>
        {spec.columns.map((row, i) => (
          <Box key={row} role="row" sx={{ display: 'contents' }}>
            <Box
              role="rowheader"
              title={row}
              sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', pr: 1 }}
            >
              {row}
            </Box>
            {spec.values[i]!.map((v, j) => (
              <Box
                key={`${row}-${spec.columns[j]}`}
                role="cell"
                title={`${row} / ${spec.columns[j]}: ${v === null ? 'n/a' : v.toFixed(3)}`}
                sx={{
                  bgcolor: colour(v),
                  color: v !== null && Math.abs(v) > 0.55 ? '#fff' : 'text.primary',
                  textAlign: 'center',
                  py: 0.75,
                  borderRadius: 0.5,
                }}
              >
                {v === null ? '' : v.toFixed(2)}
              </Box>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function Network({ spec }: { spec: Extract<ChartSpec, { kind: 'network' }> }) {
  const theme = useTheme();
  const size = 320;
  const r = size / 2 - 60;
  const at = (i: number) => {
    const a = (2 * Math.PI * i) / Math.max(1, spec.nodes.length) - Math.PI / 2;
    return { x: size / 2 + r * Math.cos(a), y: size / 2 + r * Math.sin(a) };
  };
  const index = new Map(spec.nodes.map((n, i) => [n.id, i]));
  return (
    <Box
      component="svg"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={spec.title}
      sx={{ width: '100%', maxWidth: 420, display: 'block', mx: 'auto' }}
    >
      {spec.edges.map((e) => {
        const a = at(index.get(e.source) ?? 0);
        const b = at(index.get(e.target) ?? 0);
        return (
          <line
            key={`${e.source}-${e.target}`}
            x1={a.x}
            y1={a.y}
            x2={b.x}
            y2={b.y}
            stroke={e.weight >= 0 ? '#c62828' : '#1565c0'}
            strokeWidth={1 + 4 * Math.abs(e.weight)}
            strokeOpacity={0.7}
          >
            <title>{`${e.source} - ${e.target}: r = ${e.weight.toFixed(3)}`}</title>
          </line>
        );
      })}
      {spec.nodes.map((n, i) => {
        const p = at(i);
        return (
          <g key={n.id}>
            <circle cx={p.x} cy={p.y} r={6} fill={theme.palette.primary.main} />
            <text
              x={p.x}
              y={p.y - 10}
              textAnchor="middle"
              fontSize={11}
              fill={theme.palette.text.primary}
            >
              {n.id.length > 18 ? `${n.id.slice(0, 17)}…` : n.id}
            </text>
          </g>
        );
      })}
    </Box>
  );
}

function Chart({
  spec,
  height,
  options,
}: {
  spec: ChartSpec;
  height: number;
  options: ChartDisplayOptions;
}) {
  switch (spec.kind) {
    case 'histogram':
      return (
        <BarChart
          height={height}
          xAxis={[
            {
              scaleType: 'band',
              data: spec.bins.map((b) => `${fmtNumber(b.start)}–${fmtNumber(b.end)}`),
              label: spec.column,
              tickLabelStyle: { fontSize: 10 },
            },
          ]}
          yAxis={[{ label: 'Rows', width: 'auto' }]}
          series={[{ data: spec.bins.map((b) => b.count), label: 'Rows' }]}
          hideLegend
          margin={{ right: 8 }}
        />
      );
    case 'bar':
      return (
        <BarChart
          height={height}
          xAxis={[
            {
              scaleType: 'band',
              data: spec.categories,
              label: spec.xLabel,
              tickLabelStyle: { fontSize: 10 },
            },
          ]}
          yAxis={[{ width: 'auto' }]}
          series={spec.series.map((s) => ({ data: s.values, label: s.name }))}
          hideLegend={spec.series.length < 2}
          margin={{ right: 8 }}
        />
      );
    case 'line': {
      const numeric = spec.x.every((v) => typeof v === 'number');
      const log = options.logScale === true;
      const right = new Set(options.rightAxis ?? []);
      const twoAxes =
        spec.series.some((s) => right.has(s.name)) && spec.series.some((s) => !right.has(s.name));
      const scaleType = log ? ('log' as const) : ('linear' as const);
      const axisOf = (name: string) => (twoAxes && right.has(name) ? 'right' : 'left');
      const names = (side: 'left' | 'right') =>
        spec.series
          .filter((s) => axisOf(s.name) === side)
          .map((s) => s.name)
          .join(', ');
      return (
        <LineChart
          height={height}
          xAxis={[
            numeric
              ? {
                  data: spec.x as number[],
                  label: spec.xLabel,
                  scaleType: 'linear',
                  tickMinStep: 1,
                  // Years read as years: 1960, never 1,960.
                  ...(isYearAxis(spec)
                    ? { valueFormatter: (v: number) => String(Math.round(v)) }
                    : {}),
                }
              : { data: spec.x.map(String), label: spec.xLabel, scaleType: 'point' },
          ]}
          yAxis={
            twoAxes
              ? [
                  { id: 'left', scaleType, width: 'auto', label: names('left') },
                  {
                    id: 'right',
                    scaleType,
                    width: 'auto',
                    label: names('right'),
                    position: 'right',
                  },
                ]
              : [{ id: 'left', scaleType, width: 'auto' }]
          }
          series={spec.series.map((s, i) => ({
            data: log ? s.values.map((v) => (v !== null && v > 0 ? v : null)) : s.values,
            label: s.name,
            color: lineColor(i),
            yAxisId: axisOf(s.name),
            showMark: spec.x.length < 40,
            connectNulls: false,
          }))}
          margin={{ right: twoAxes ? 4 : 16 }}
        />
      );
    }
    case 'scatter':
      return (
        <ScatterChart
          height={height}
          xAxis={[{ label: spec.xLabel }]}
          yAxis={[{ label: spec.yLabel, width: 'auto' }]}
          series={[
            {
              data: spec.points.map((p, i) => ({ ...p, id: i })),
              label: `${spec.yLabel} vs ${spec.xLabel}`,
              markerSize: 3,
            },
          ]}
          hideLegend
        />
      );
    case 'pie':
      return (
        <PieChart
          height={height}
          series={[
            {
              data: spec.slices.map((s, i) => ({ id: i, value: s.value, label: s.label })),
              innerRadius: 30,
            },
          ]}
        />
      );
    case 'heatmap':
      return <Heatmap spec={spec} />;
    case 'network':
      return <Network spec={spec} />;
  }
}

/** How a line chart is drawn: a log value axis, and the series drawn against a right axis. */
export interface ChartDisplayOptions {
  logScale?: boolean;
  /** Names of series drawn against a second axis on the right. */
  rightAxis?: string[];
}

/** Colours of line series: Tableau's ten and two more, repeated past twelve. */
const LINE_COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#1f3a93',
  '#8c564b',
];
const lineColor = (i: number) => LINE_COLORS[i % LINE_COLORS.length]!;

/** Whether a line chart's x values are years (the server says so; older specs: whole numbers 1000-2999). */
export function isYearAxis(spec: Extract<ChartSpec, { kind: 'line' }>): boolean {
  if (spec.xKind !== undefined) return spec.xKind === 'year';
  return (
    spec.x.length > 0 &&
    spec.x.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 1000 && v <= 2999)
  );
}

/** What the chart leaves out, said under it. */
function notesOf(spec: ChartSpec, options: ChartDisplayOptions): string[] {
  if (spec.kind !== 'line') return [];
  const notes: string[] = [];
  if (spec.seriesBy && spec.seriesBy.total > spec.series.length) {
    notes.push(
      `Showing ${spec.series.length} of ${spec.seriesBy.total.toLocaleString('en')} values of ${spec.seriesBy.column}.`,
    );
  }
  if (options.logScale) {
    const dropped = spec.series.reduce(
      (n, s) => n + s.values.filter((v) => v !== null && v <= 0).length,
      0,
    );
    if (dropped > 0) {
      notes.push(
        `${dropped.toLocaleString('en')} value${dropped === 1 ? ' is' : 's are'} zero or less and cannot be drawn on a log scale.`,
      );
    }
  }
  return notes;
}

function DownloadButtons({
  figure,
  spec,
}: {
  figure: RefObject<HTMLElement | null>;
  spec: ChartSpec;
}) {
  const [error, setError] = useState<string | null>(null);
  const svgText = () => {
    const svg = figure.current ? chartSvgIn(figure.current) : null;
    if (!svg) throw new Error('The chart is not drawn yet.');
    const legend =
      spec.kind === 'line'
        ? spec.series.map((s, i) => ({ label: s.name, color: lineColor(i) }))
        : [];
    return chartSvgText(svg, spec.title, legend);
  };
  const run = (save: (text: string) => Promise<void> | void) => () => {
    setError(null);
    Promise.resolve()
      .then(() => save(svgText()))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        aria-label="Download chart as PNG"
        onClick={run((t) => downloadChartPng(t, spec.title))}
      >
        PNG
      </Button>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        aria-label="Download chart as SVG"
        onClick={run((t) => downloadChartSvg(t, spec.title))}
      >
        SVG
      </Button>
      {error && (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      )}
    </Stack>
  );
}

export function ChartView({
  spec,
  height = 280,
  showHeading = true,
  options = {},
  downloadable = false,
}: {
  spec: ChartSpec;
  height?: number;
  showHeading?: boolean;
  options?: ChartDisplayOptions;
  /** PNG and SVG download buttons under the chart (not for the heatmap, which is a table). */
  downloadable?: boolean;
}) {
  const figure = useRef<HTMLElement | null>(null);
  const notes = notesOf(spec, options);
  return (
    <Box
      component="figure"
      ref={figure}
      sx={{ m: 0 }}
      aria-label={spec.title}
      data-chart-kind={spec.kind}
    >
      {showHeading && (
        <>
          <Typography component="figcaption" variant="subtitle2">
            {spec.title}
          </Typography>
          <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
            {spec.description}
          </Typography>
        </>
      )}
      <Chart spec={spec} height={height} options={options} />
      {notes.map((n) => (
        <Typography key={n} variant="body2" color="textSecondary">
          {n}
        </Typography>
      ))}
      {downloadable && spec.kind !== 'heatmap' && <DownloadButtons figure={figure} spec={spec} />}
    </Box>
  );
}
