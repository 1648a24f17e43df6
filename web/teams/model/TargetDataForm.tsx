import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
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
import { useProject } from '../../api/queries/projects';
import { LabelledSelect, optionsOf, useTeamProjectId, type SelectOption } from '../shared';

/**
 * The optional target dataset of the configuration, read by the calibration phase: a catalog
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

/**
 * The dataset choices with the selected project's datasets first (each marked "this project"),
 * then the rest of the catalog in its own order.
 */
export function datasetOptions(
  list: readonly { id: string; name: string }[],
  projectDatasetIds: readonly string[],
): SelectOption<string>[] {
  const inProject = new Set(projectDatasetIds);
  const first = list.filter((d) => inProject.has(d.id));
  const rest = list.filter((d) => !inProject.has(d.id));
  return [
    ...first.map((d) => ({ value: d.id, label: `${d.name} (this project)` })),
    ...rest.map((d) => ({ value: d.id, label: d.name })),
  ];
}

const FREQUENCY_OPTIONS: SelectOption<TargetDataDraft['frequency']>[] = [
  { value: '', label: 'From the time index' },
  ...optionsOf(TARGET_FREQUENCIES),
];
const TRANSFORM_OPTIONS = optionsOf(TARGET_TRANSFORMS, TARGET_TRANSFORM_LABELS);

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
  // the project the session starts in (the screen's project selector, ?projectId=)
  const projectId = useTeamProjectId();
  const project = useProject(value.enabled ? projectId : undefined);
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
            <LabelledSelect
              id="model-target-dataset"
              label="Target dataset"
              value={value.datasetId}
              options={datasetOptions(list, project.data?.datasets ?? [])}
              onChange={(datasetId) =>
                onChange({
                  ...value,
                  datasetId,
                  columns: value.columns.map((c) => ({ ...c, column: '' })),
                })
              }
              disabled={disabled}
              minWidth={280}
              helperText={
                datasets.isSuccess && list.length === 0
                  ? 'The catalog has no dataset you can see; add one in the Data Explorer.'
                  : undefined
              }
            />
            <LabelledSelect
              id="model-target-frequency"
              label="Frequency"
              value={value.frequency}
              options={FREQUENCY_OPTIONS}
              onChange={(frequency) => onChange({ ...value, frequency })}
              disabled={disabled}
              minWidth={180}
            />
          </Stack>
          {value.columns.map((row, i) => (
            <Stack
              key={i}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{ alignItems: { sm: 'center' } }}
            >
              <LabelledSelect
                id={`model-target-column-${i}`}
                label="Column"
                value={row.column}
                options={columns.map((f) => ({ value: f.name, label: f.name }))}
                onChange={(column) => setRow(i, { column })}
                disabled={disabled || !dataset}
                minWidth={180}
              />
              <Typography aria-hidden>→</Typography>
              <LabelledSelect
                id={`model-target-variable-${i}`}
                label="Model variable"
                value={row.variable}
                options={(variables.data?.variables ?? []).map((v) => ({
                  value: v.name,
                  label: `${v.name} (${v.label})`,
                }))}
                onChange={(variable) => setRow(i, { variable })}
                disabled={disabled}
                minWidth={220}
              />
              <LabelledSelect
                id={`model-target-transform-${i}`}
                label="Transform"
                value={row.transform}
                options={TRANSFORM_OPTIONS}
                onChange={(transform) => setRow(i, { transform })}
                disabled={disabled}
                minWidth={170}
              />
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
