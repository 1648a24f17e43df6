import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { catalogDatasetsReplySchema, type CatalogDataset } from '../../../common/teams/data';
import { checkedApi, unwrap } from '../../api/client';
import { fmtNumber } from '../../components/formatNumber';
import { catalogDatasetsPath } from './dataSession';

/** The stored datasets the user can analyse, the project's first (GET /catalog-datasets). */
function useCatalogDatasets(projectId: string | undefined) {
  return useQuery({
    queryKey: ['data-team', 'catalog-datasets', projectId ?? null],
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(catalogDatasetsReplySchema, catalogDatasetsPath(projectId), signal),
      ).then((r) => r.datasets),
  });
}

function option(d: CatalogDataset) {
  return (
    <MenuItem key={d.id} value={d.id}>
      {d.name}
      {d.recordCount !== null ? ` (${fmtNumber(d.recordCount)} rows)` : ''}
    </MenuItem>
  );
}

/**
 * "From the project / catalog": a dataset already stored, chosen among those the user can read;
 * the selected project's datasets come first, under their own heading.
 */
export function CatalogDatasetPicker({
  projectId,
  value,
  onChange,
  error,
  disabled,
}: {
  projectId: string | undefined;
  value: string;
  onChange: (datasetId: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  const datasets = useCatalogDatasets(projectId);
  if (datasets.isError) {
    return <Alert severity="error">Could not list the datasets: {datasets.error.message}</Alert>;
  }
  const list = datasets.data ?? [];
  const inProject = list.filter((d) => d.inProject);
  const others = list.filter((d) => !d.inProject);
  if (datasets.isSuccess && list.length === 0) {
    return (
      <Alert severity="info">
        No stored dataset to analyse yet. Upload one or fetch one from an API, here or in the Data
        Explorer, and it will be listed.
      </Alert>
    );
  }
  return (
    <FormControl size="small" fullWidth error={error !== undefined} disabled={disabled}>
      <InputLabel id="catalog-dataset-label">Dataset</InputLabel>
      <Select
        labelId="catalog-dataset-label"
        id="catalog-dataset"
        label="Dataset"
        value={list.some((d) => d.id === value) ? value : ''}
        onChange={(e) => onChange(e.target.value)}
      >
        {inProject.length > 0 && <ListSubheader>In the project</ListSubheader>}
        {inProject.map(option)}
        {inProject.length > 0 && others.length > 0 && (
          <ListSubheader>Other datasets you can read</ListSubheader>
        )}
        {others.map(option)}
      </Select>
      <FormHelperText>
        {error ??
          (datasets.isPending
            ? 'Loading the datasets...'
            : 'Analysed as stored: its missing-value tokens were read when it was loaded.')}
      </FormHelperText>
    </FormControl>
  );
}
