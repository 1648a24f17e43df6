import { useEffect, useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import {
  DATASET_DATA_TYPES,
  DATASET_DATA_TYPE_LABELS,
  DATASET_NAME_MAX,
  type CreateDatasetRequest,
  type DatasetDataType,
  type DatasetField,
  type DatasetSource,
  type IntegrationLevel,
} from '../../../../common/datasets';
import { useCreateDataset } from '../../../api/queries/datasets';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  API_SOURCE_INFO,
  API_SOURCES,
  DATA_FILE_EXTENSIONS,
  type ApiSource,
} from '../../../../common/teams/data';
import { useExplorerFetch, useExplorerUpload } from './explorerApi';
import { sourceOptions } from './sourceOptions';

type Mode = 'describe' | 'upload' | 'api';

interface FormState {
  name: string;
  source: DatasetSource;
  dataType: DatasetDataType;
  description: string;
  fields: string;
  recordCount: string;
  start: string;
  end: string;
  format: string;
  license: string;
  integrationLevel: IntegrationLevel;
  citation: string;
  hasFullText: boolean;
  apiAvailable: boolean;
}

const EMPTY: FormState = {
  name: '',
  source: 'custom',
  dataType: 'time_series',
  description: '',
  fields: '',
  recordCount: '',
  start: '',
  end: '',
  format: '',
  license: '',
  integrationLevel: 'partial',
  citation: '',
  hasFullText: false,
  apiAvailable: false,
};

/** 'gdp: number: Gross domestic product' per line -> fields (type and description optional). */
export function parseFields(text: string): DatasetField[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      // Only the first two colons separate; a description may contain more.
      const [name = '', type = '', ...rest] = line.split(':');
      return { name: name.trim(), type: type.trim(), description: rest.join(':').trim() };
    })
    .filter((f) => f.name !== '');
}

export function toCreateRequest(f: FormState): CreateDatasetRequest {
  const count = f.recordCount.trim() === '' ? null : Number(f.recordCount);
  return {
    name: f.name.trim(),
    source: f.source,
    dataType: f.dataType,
    description: f.description.trim(),
    fields: parseFields(f.fields),
    recordCount: count,
    dateRange: { start: f.start.trim() || null, end: f.end.trim() || null },
    format: f.format.trim(),
    license: f.license.trim(),
    integrationLevel: f.integrationLevel,
    metadata: {
      citation: f.citation.trim(),
      hasFullText: f.hasFullText,
      apiAvailable: f.apiAvailable,
    },
  };
}

/** Adds a catalog entry (POST /api/datasets); the server's validation message is shown as is. */
export function AddDatasetDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (name: string) => void;
}) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const create = useCreateDataset();
  const uploadFile = useExplorerUpload();
  const fetchApi = useExplorerFetch();
  const [mode, setMode] = useState<Mode>('describe');
  const [file, setFile] = useState<File | null>(null);
  const [apiSource, setApiSource] = useState<ApiSource>('world_bank');
  const [datasetId, setDatasetId] = useState('');
  const [form, setForm] = useState<FormState>(EMPTY);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  useEffect(() => {
    if (open) {
      setForm(EMPTY);
      setMode('describe');
      setFile(null);
      setDatasetId('');
      create.reset();
      uploadFile.reset();
      fetchApi.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset when the dialog opens
  }, [open]);

  const countInvalid = form.recordCount.trim() !== '' && !/^\d+$/.test(form.recordCount.trim());
  const valid = form.name.trim() !== '' && !countInvalid;

  const busy = create.isPending || uploadFile.isPending || fetchApi.isPending;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const done = (d: { dataset: { name: string } }) => {
      onAdded(d.dataset.name);
      onClose();
    };
    if (mode === 'upload') {
      if (!file) return;
      const data = new FormData();
      if (form.name.trim()) data.append('name', form.name.trim());
      if (form.description.trim()) data.append('description', form.description.trim());
      data.append('file', file, file.name);
      uploadFile.mutate(data, { onSuccess: done });
      return;
    }
    if (mode === 'api') {
      if (!datasetId.trim()) return;
      fetchApi.mutate(
        {
          source: apiSource,
          datasetId: datasetId.trim(),
          ...(form.name.trim() ? { name: form.name.trim() } : {}),
        },
        { onSuccess: done },
      );
      return;
    }
    if (!valid) return;
    create.mutate(toCreateRequest(form), {
      onSuccess: (d) => {
        onAdded(d.name);
        onClose();
      },
    });
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
      slotProps={{ paper: { component: 'form', onSubmit: submit } }}
    >
      <DialogTitle id={titleId}>Add dataset</DialogTitle>
      <DialogContent>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={mode}
          onChange={(_e, v: Mode | null) => v && setMode(v)}
          aria-label="How to add the dataset"
          sx={{ mb: 1, flexWrap: 'wrap' }}
        >
          <ToggleButton value="describe">Describe it</ToggleButton>
          <ToggleButton value="upload">Upload a file</ToggleButton>
          <ToggleButton value="api">From a public API</ToggleButton>
        </ToggleButtonGroup>
        {mode !== 'describe' && (
          <Grid container spacing={2} sx={{ pt: 1 }}>
            {(uploadFile.isError || fetchApi.isError) && (
              <Grid size={12}>
                <Alert severity="error">{(uploadFile.error ?? fetchApi.error)?.message}</Alert>
              </Grid>
            )}
            <Grid size={12}>
              <Typography variant="body2" color="textSecondary">
                {mode === 'upload'
                  ? 'The file is checked, stored with a Parquet copy and profiled; its columns, row count and period fill the catalog entry.'
                  : 'The data is fetched now, stored with a Parquet copy and profiled; the catalog entry says where it came from.'}
              </Typography>
            </Grid>
            {mode === 'upload' ? (
              <Grid size={12}>
                <Button variant="outlined" component="label">
                  Choose a CSV or JSON file
                  <input
                    type="file"
                    hidden
                    accept={DATA_FILE_EXTENSIONS.join(',')}
                    onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                  />
                </Button>
                <Typography component="span" variant="body2" sx={{ ml: 1.5 }} aria-live="polite">
                  {file ? file.name : 'No file chosen'}
                </Typography>
              </Grid>
            ) : (
              <>
                <Grid size={{ xs: 12, md: 4 }}>
                  <TextField
                    select
                    label="API source"
                    value={apiSource}
                    onChange={(e) => setApiSource(e.target.value as ApiSource)}
                  >
                    {API_SOURCES.map((s) => (
                      <MenuItem key={s} value={s}>
                        {API_SOURCE_INFO[s].label}
                      </MenuItem>
                    ))}
                  </TextField>
                </Grid>
                <Grid size={{ xs: 12, md: 8 }}>
                  <TextField
                    label="Dataset ID"
                    placeholder={API_SOURCE_INFO[apiSource].example}
                    value={datasetId}
                    onChange={(e) => setDatasetId(e.target.value)}
                    helperText={API_SOURCE_INFO[apiSource].help}
                  />
                </Grid>
              </>
            )}
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                label="Name (optional)"
                value={form.name}
                onChange={(e) => set('name', e.target.value)}
                slotProps={{ htmlInput: { maxLength: DATASET_NAME_MAX } }}
              />
            </Grid>
            {mode === 'upload' && (
              <Grid size={{ xs: 12, md: 6 }}>
                <TextField
                  label="Description (optional)"
                  value={form.description}
                  onChange={(e) => set('description', e.target.value)}
                />
              </Grid>
            )}
          </Grid>
        )}
        {mode === 'describe' && (
          <Grid container spacing={2} sx={{ pt: 1 }}>
            {create.isError && (
              <Grid size={12}>
                <Alert severity="error">{create.error.message}</Alert>
              </Grid>
            )}
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                label="Name"
                required
                autoFocus
                value={form.name}
                onChange={(e) => set('name', e.target.value)}
                slotProps={{ htmlInput: { maxLength: DATASET_NAME_MAX } }}
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                select
                label="Source"
                required
                value={form.source}
                onChange={(e) => set('source', e.target.value as DatasetSource)}
              >
                {sourceOptions()}
              </TextField>
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                select
                label="Data type"
                required
                value={form.dataType}
                onChange={(e) => set('dataType', e.target.value as DatasetDataType)}
              >
                {DATASET_DATA_TYPES.map((t) => (
                  <MenuItem key={t} value={t}>
                    {DATASET_DATA_TYPE_LABELS[t]}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={12}>
              <TextField
                label="Description"
                multiline
                minRows={2}
                value={form.description}
                onChange={(e) => set('description', e.target.value)}
              />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                label="Fields"
                multiline
                minRows={3}
                value={form.fields}
                onChange={(e) => set('fields', e.target.value)}
                helperText="One per line: name: type: description (type and description optional)"
              />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                label="Citation"
                multiline
                minRows={3}
                value={form.citation}
                onChange={(e) => set('citation', e.target.value)}
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                label="Record count"
                value={form.recordCount}
                onChange={(e) => set('recordCount', e.target.value)}
                error={countInvalid}
                helperText={countInvalid ? 'A whole number' : ' '}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                label="Period start"
                value={form.start}
                onChange={(e) => set('start', e.target.value)}
                helperText="e.g. 1990-01-01 or 1990Q1"
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                label="Period end"
                value={form.end}
                onChange={(e) => set('end', e.target.value)}
                helperText=" "
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                select
                label="Integration level"
                value={form.integrationLevel}
                onChange={(e) => set('integrationLevel', e.target.value as IntegrationLevel)}
                helperText=" "
              >
                <MenuItem value="partial">Partial</MenuItem>
                <MenuItem value="full">Full</MenuItem>
              </TextField>
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                label="Format"
                value={form.format}
                onChange={(e) => set('format', e.target.value)}
                helperText="csv, json, api…"
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextField
                label="License"
                value={form.license}
                onChange={(e) => set('license', e.target.value)}
                helperText="e.g. CC BY 4.0"
              />
            </Grid>
            <Grid
              size={{ xs: 12, md: 6 }}
              sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap' }}
            >
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.apiAvailable}
                    onChange={(e) => set('apiAvailable', e.target.checked)}
                  />
                }
                label="Available through an API"
              />
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.hasFullText}
                    onChange={(e) => set('hasFullText', e.target.checked)}
                  />
                }
                label="Has full text"
              />
            </Grid>
          </Grid>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={
            busy ||
            (mode === 'describe' && !valid) ||
            (mode === 'upload' && !file) ||
            (mode === 'api' && !datasetId.trim())
          }
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          Add dataset
        </Button>
      </DialogActions>
    </Dialog>
  );
}
