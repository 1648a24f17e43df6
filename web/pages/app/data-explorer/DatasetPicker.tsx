import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useDatasets } from '../../../api/queries/datasets';

/** Chooses one of the catalog datasets the user can see (newest first). */
export function DatasetPicker({
  label,
  value,
  onChange,
  exclude,
}: {
  label: string;
  value: string;
  onChange(id: string): void;
  exclude?: string;
}) {
  const datasets = useDatasets({ limit: 200 });
  const list = (datasets.data?.datasets ?? []).filter((d) => d.id !== exclude);
  return (
    <TextField
      select
      size="small"
      label={label}
      value={list.some((d) => d.id === value) ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 240 }}
      helperText={
        datasets.isPending
          ? 'Loading the catalog...'
          : list.length === 0
            ? 'No datasets yet: add one first'
            : ' '
      }
    >
      {list.map((d) => (
        <MenuItem key={d.id} value={d.id}>
          {d.name}
          {d.recordCount !== null ? ` (${d.recordCount.toLocaleString('en')} rows)` : ''}
        </MenuItem>
      ))}
    </TextField>
  );
}
