import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import {
  FREQUENCY_AGGREGATIONS,
  FREQUENCY_TARGETS,
  MISSING_VALUE_METHODS,
  TRANSFORMATIONS,
  type FeatureSpec,
  type Transformation,
} from '../../../../common/teams/data';
import { DatasetPicker } from './DatasetPicker';
import { isNumericType, useDatasetColumns, useFeatures } from './explorerApi';
import { SaveAsDataset } from './SavedNotice';

type Missing = (typeof MISSING_VALUE_METHODS)[number] | 'keep';
type Frequency = (typeof FREQUENCY_TARGETS)[number] | 'keep';

const OP_LABELS: Record<Transformation, string> = {
  log: 'log',
  sqrt: 'square root',
  square: 'square',
  standardize: 'standardize (z-score)',
  lag: 'lag',
  pct_change: 'percent change',
};

/**
 * Feature Engineering: transformations (log, sqrt, square, standardize, lag, pct_change),
 * missing values (impute, drop, fill) and frequency (auto, monthly, quarterly, yearly) of a stored
 * dataset; the result is saved as a new dataset.
 */
export function FeatureEngineeringTab() {
  const [datasetId, setDatasetId] = useState('');
  const [ops, setOps] = useState<{ column: string; op: Transformation; periods: number }[]>([]);
  const [missing, setMissing] = useState<Missing>('keep');
  const [impute, setImpute] = useState<'mean' | 'median' | 'mode'>('mean');
  const [fillValue, setFillValue] = useState('');
  const [frequency, setFrequency] = useState<Frequency>('keep');
  const [aggregation, setAggregation] = useState<(typeof FREQUENCY_AGGREGATIONS)[number]>('mean');
  const [partitionBy, setPartitionBy] = useState<string[]>([]);
  const [name, setName] = useState('');
  const columns = useDatasetColumns(datasetId || undefined);
  const numeric = columns.columns.filter((c) => isNumericType(c.type));
  const others = columns.columns.filter((c) => !isNumericType(c.type));
  const features = useFeatures();
  const nothing = ops.length === 0 && missing === 'keep' && frequency === 'keep';

  const save = () => {
    const spec: FeatureSpec = {
      transformations: ops.filter((o) => o.column),
      partitionBy,
      ...(missing !== 'keep'
        ? {
            missing: {
              method: missing,
              impute,
              ...(missing === 'fill' && fillValue.trim() !== ''
                ? { value: Number.isNaN(Number(fillValue)) ? fillValue : Number(fillValue) }
                : {}),
            },
          }
        : {}),
      ...(frequency !== 'keep'
        ? { frequency: { target: frequency, aggregation, groupBy: partitionBy } }
        : {}),
    };
    features.mutate({ id: datasetId, request: { name: name.trim(), spec } });
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <DatasetPicker label="Dataset" value={datasetId} onChange={setDatasetId} />
        {columns.isError && <Alert severity="warning">{columns.error.message}</Alert>}

        <Typography variant="subtitle2" component="h3">
          Transformations (each adds a column)
        </Typography>
        {ops.map((o, i) => (
          <Stack
            key={i}
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
          >
            <TextField
              select
              size="small"
              label="Column"
              value={numeric.some((c) => c.name === o.column) ? o.column : ''}
              onChange={(e) =>
                setOps((xs) => xs.map((x, j) => (j === i ? { ...x, column: e.target.value } : x)))
              }
              sx={{ minWidth: 180 }}
            >
              {numeric.map((c) => (
                <MenuItem key={c.name} value={c.name}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label="Transformation"
              value={o.op}
              onChange={(e) =>
                setOps((xs) =>
                  xs.map((x, j) => (j === i ? { ...x, op: e.target.value as Transformation } : x)),
                )
              }
              sx={{ minWidth: 180 }}
            >
              {TRANSFORMATIONS.map((t) => (
                <MenuItem key={t} value={t}>
                  {OP_LABELS[t]}
                </MenuItem>
              ))}
            </TextField>
            {(o.op === 'lag' || o.op === 'pct_change') && (
              <TextField
                size="small"
                type="number"
                label="Periods"
                value={o.periods}
                onChange={(e) =>
                  setOps((xs) =>
                    xs.map((x, j) =>
                      j === i ? { ...x, periods: Math.max(1, Number(e.target.value) || 1) } : x,
                    ),
                  )
                }
                sx={{ width: 110 }}
              />
            )}
            <IconButton
              aria-label={`Remove transformation ${i + 1}`}
              onClick={() => setOps((xs) => xs.filter((_, j) => j !== i))}
            >
              <DeleteOutline />
            </IconButton>
          </Stack>
        ))}
        <div>
          <Button
            startIcon={<Add />}
            onClick={() => setOps((xs) => [...xs, { column: '', op: 'log', periods: 1 }])}
            disabled={!datasetId}
          >
            Add a transformation
          </Button>
        </div>

        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextField
            select
            size="small"
            label="Missing values"
            value={missing}
            onChange={(e) => setMissing(e.target.value as Missing)}
            sx={{ minWidth: 170 }}
          >
            <MenuItem value="keep">leave as they are</MenuItem>
            {MISSING_VALUE_METHODS.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          {missing === 'impute' && (
            <TextField
              select
              size="small"
              label="Impute with"
              value={impute}
              onChange={(e) => setImpute(e.target.value as typeof impute)}
              sx={{ minWidth: 150 }}
            >
              <MenuItem value="mean">mean</MenuItem>
              <MenuItem value="median">median</MenuItem>
              <MenuItem value="mode">most frequent</MenuItem>
            </TextField>
          )}
          {missing === 'fill' && (
            <TextField
              size="small"
              label="Fill value (blank: carry the last value forward)"
              value={fillValue}
              onChange={(e) => setFillValue(e.target.value)}
              sx={{ minWidth: 320 }}
            />
          )}
          <TextField
            select
            size="small"
            label="Frequency"
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as Frequency)}
            sx={{ minWidth: 150 }}
          >
            <MenuItem value="keep">keep</MenuItem>
            {FREQUENCY_TARGETS.map((f) => (
              <MenuItem key={f} value={f}>
                {f}
              </MenuItem>
            ))}
          </TextField>
          {frequency !== 'keep' && (
            <TextField
              select
              size="small"
              label="Aggregate by"
              value={aggregation}
              onChange={(e) => setAggregation(e.target.value as typeof aggregation)}
              sx={{ minWidth: 130 }}
            >
              {FREQUENCY_AGGREGATIONS.map((a) => (
                <MenuItem key={a} value={a}>
                  {a}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
        <TextField
          select
          size="small"
          label="Series columns (a panel's entity, e.g. country)"
          value={partitionBy}
          onChange={(e) => setPartitionBy(e.target.value as unknown as string[])}
          slotProps={{ select: { multiple: true } }}
          helperText="Lags, changes and frequency groups stay within each series."
          sx={{ maxWidth: 480 }}
        >
          {others.map((c) => (
            <MenuItem key={c.name} value={c.name}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <SaveAsDataset
          name={name}
          onNameChange={setName}
          label="Transform and save"
          disabled={!datasetId || !name.trim() || nothing}
          onSave={save}
          mutation={features}
        />
      </Stack>
    </Paper>
  );
}
