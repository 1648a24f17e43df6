import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import {
  MAX_TARGET_COLUMNS,
  MODEL_TEAM_BASE,
  modelVariablesReplySchema,
  TARGET_FREQUENCIES,
  TARGET_TRANSFORM_LABELS,
  TARGET_TRANSFORMS,
  type ModelType,
  type TargetDataInput,
  type TargetFrequency,
  type TargetTransform,
} from '../../../common/teams/model';
import { checkedApi, unwrap } from '../../api/client';
import { useDatasets } from '../../api/queries/datasets';

/**
 * The optional target dataset of the configuration (agent-teams.md §4 Model, phase 3): a catalog
 * dataset, which of its columns stands for which variable of the chosen model type, the
 * transform of each column and the frequency. The server checks everything again at the start
 * and answers with what to fix.
 */

export interface TargetDataDraft {
  enabled: boolean;
  datasetId: string;
  /** '' = read from the dataset's time index. */
  frequency: '' | TargetFrequency;
  columns: { column: string; variable: string; transform: TargetTransform }[];
}

export const EMPTY_TARGET_DATA: TargetDataDraft = {
  enabled: false,
  datasetId: '',
  frequency: '',
  columns: [{ column: '', variable: '', transform: 'hp' }],
};

/** The request's targetData, or the text of what is missing. */
export function targetDataOf(
  draft: TargetDataDraft,
): { ok: true; value: TargetDataInput | undefined } | { ok: false; error: string } {
  if (!draft.enabled) return { ok: true, value: undefined };
  if (!draft.datasetId) return { ok: false, error: 'Choose the dataset for the target moments' };
  if (draft.columns.some((c) => !c.column || !c.variable)) {
    return { ok: false, error: 'Choose a column and a model variable in every row' };
  }
  return {
    ok: true,
    value: {
      datasetId: draft.datasetId,
      columns: draft.columns,
      ...(draft.frequency ? { frequency: draft.frequency } : {}),
    },
  };
}

const TRANSFORM_HELP =
  'log, HP cycle: variables the model has in logs (output, consumption); log difference: growth rates; level: rates.';

export function TargetDataForm({
  modelType,
  value,
  onChange,
  disabled,
  error,
}: {
  modelType: ModelType;
  value: TargetDataDraft;
  onChange: (next: TargetDataDraft) => void;
  disabled: boolean;
  error?: string;
}) {
  const datasets = useDatasets({ limit: 200 }, value.enabled);
  const variables = useQuery({
    queryKey: ['model-team', 'variables', modelType],
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          modelVariablesReplySchema,
          `${MODEL_TEAM_BASE}/variables/${encodeURIComponent(modelType)}`,
          signal,
        ),
      ),
    enabled: value.enabled,
    staleTime: Infinity,
  });
  const list = datasets.data?.datasets ?? [];
  const dataset = list.find((d) => d.id === value.datasetId);
  const numeric = (dataset?.fields ?? []).filter((f) => f.type === 'numeric');
  const columns = numeric.length > 0 ? numeric : (dataset?.fields ?? []);
  const setRow = (i: number, patch: Partial<TargetDataDraft['columns'][number]>) =>
    onChange({
      ...value,
      columns: value.columns.map((c, k) => (k === i ? { ...c, ...patch } : c)),
    });

  return (
    <Box sx={{ mt: 2 }}>
      <FormControlLabel
        control={
          <Checkbox
            checked={value.enabled}
            onChange={(e) => onChange({ ...value, enabled: e.target.checked })}
            disabled={disabled}
          />
        }
        label="Target moments from a catalog dataset (else the documented stylised facts)"
      />
      {value.enabled && (
        <Stack spacing={1.5} sx={{ mt: 1 }} role="group" aria-label="Target dataset">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormControl size="small" sx={{ minWidth: 280 }}>
              <InputLabel id="model-target-dataset-label">Target dataset</InputLabel>
              <Select
                labelId="model-target-dataset-label"
                label="Target dataset"
                value={dataset ? value.datasetId : ''}
                onChange={(e) =>
                  onChange({
                    ...value,
                    datasetId: e.target.value,
                    columns: value.columns.map((c) => ({ ...c, column: '' })),
                  })
                }
                disabled={disabled}
              >
                {list.map((d) => (
                  <MenuItem key={d.id} value={d.id}>
                    {d.name}
                  </MenuItem>
                ))}
              </Select>
              {datasets.isSuccess && list.length === 0 && (
                <FormHelperText>
                  The catalog has no dataset you can see; add one in the Data Explorer.
                </FormHelperText>
              )}
            </FormControl>
            <FormControl size="small" sx={{ minWidth: 180 }}>
              <InputLabel id="model-target-frequency-label">Frequency</InputLabel>
              <Select
                labelId="model-target-frequency-label"
                label="Frequency"
                value={value.frequency}
                onChange={(e) =>
                  onChange({ ...value, frequency: e.target.value as TargetDataDraft['frequency'] })
                }
                disabled={disabled}
              >
                <MenuItem value="">From the time index</MenuItem>
                {TARGET_FREQUENCIES.map((f) => (
                  <MenuItem key={f} value={f}>
                    {f}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          </Stack>
          {value.columns.map((row, i) => (
            <Stack
              key={i}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{ alignItems: { sm: 'center' } }}
            >
              <FormControl size="small" sx={{ minWidth: 180 }}>
                <InputLabel id={`model-target-column-${i}`}>Column</InputLabel>
                <Select
                  labelId={`model-target-column-${i}`}
                  label="Column"
                  value={columns.some((f) => f.name === row.column) ? row.column : ''}
                  onChange={(e) => setRow(i, { column: e.target.value })}
                  disabled={disabled || !dataset}
                >
                  {columns.map((f) => (
                    <MenuItem key={f.name} value={f.name}>
                      {f.name}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <Typography aria-hidden>→</Typography>
              <FormControl size="small" sx={{ minWidth: 220 }}>
                <InputLabel id={`model-target-variable-${i}`}>Model variable</InputLabel>
                <Select
                  labelId={`model-target-variable-${i}`}
                  label="Model variable"
                  value={
                    variables.data?.variables.some((v) => v.name === row.variable)
                      ? row.variable
                      : ''
                  }
                  onChange={(e) => setRow(i, { variable: e.target.value })}
                  disabled={disabled}
                >
                  {(variables.data?.variables ?? []).map((v) => (
                    <MenuItem key={v.name} value={v.name}>
                      {v.name} ({v.label})
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <FormControl size="small" sx={{ minWidth: 170 }}>
                <InputLabel id={`model-target-transform-${i}`}>Transform</InputLabel>
                <Select
                  labelId={`model-target-transform-${i}`}
                  label="Transform"
                  value={row.transform}
                  onChange={(e) => setRow(i, { transform: e.target.value as TargetTransform })}
                  disabled={disabled}
                >
                  {TARGET_TRANSFORMS.map((t) => (
                    <MenuItem key={t} value={t}>
                      {TARGET_TRANSFORM_LABELS[t]}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <IconButton
                aria-label={`Remove mapping ${i + 1}`}
                onClick={() =>
                  onChange({ ...value, columns: value.columns.filter((_, k) => k !== i) })
                }
                disabled={disabled || value.columns.length === 1}
                size="small"
              >
                <Delete fontSize="small" />
              </IconButton>
            </Stack>
          ))}
          <Box>
            <Button
              size="small"
              startIcon={<Add />}
              onClick={() =>
                onChange({
                  ...value,
                  columns: [...value.columns, { column: '', variable: '', transform: 'hp' }],
                })
              }
              disabled={disabled || value.columns.length >= MAX_TARGET_COLUMNS}
            >
              Add column
            </Button>
          </Box>
          <FormHelperText error={error !== undefined}>{error ?? TRANSFORM_HELP}</FormHelperText>
        </Stack>
      )}
    </Box>
  );
}
