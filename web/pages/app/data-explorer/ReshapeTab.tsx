import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { columnYear, type ReshapeDirection, type ReshapeSpec } from '../../../../common/teams/data';
import { DatasetPicker } from './DatasetPicker';
import { useDatasetColumns, useReshape } from './explorerApi';
import { SaveAsDataset } from './SavedNotice';

const DIRECTIONS: Record<ReshapeDirection, { label: string; help: string }> = {
  wide_to_long: {
    label: 'Wide to long',
    help: 'One column per period (e.g. the World Bank\'s "1960" ... "2023") becomes one row per id and period, with the period in a year column and the cell in a value column. Empty cells stay missing.',
  },
  long_to_wide: {
    label: 'Long to wide',
    help: 'One row per id and period becomes one row per id, with one column per period. Each id and period must appear once.',
  },
};

/** A multiple select of column names. */
function ColumnsSelect({
  label,
  columns,
  value,
  onChange,
  helperText,
}: {
  label: string;
  columns: string[];
  value: string[];
  onChange(v: string[]): void;
  helperText?: string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value.filter((v) => columns.includes(v))}
      onChange={(e) => {
        const v = e.target.value as unknown;
        onChange(Array.isArray(v) ? (v as string[]) : [String(v)]);
      }}
      slotProps={{ select: { multiple: true } }}
      sx={{ minWidth: 240, maxWidth: { md: 420 } }}
      helperText={helperText ?? ' '}
    >
      {columns.map((c) => (
        <MenuItem key={c} value={c}>
          {c}
        </MenuItem>
      ))}
    </TextField>
  );
}

function ColumnSelect({
  label,
  columns,
  value,
  onChange,
}: {
  label: string;
  columns: string[];
  value: string;
  onChange(v: string): void;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={columns.includes(value) ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 200 }}
      helperText=" "
    >
      {columns.map((c) => (
        <MenuItem key={c} value={c}>
          {c}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * Reshape: a stored panel from wide to long (the WDI layout, one column per year) or from long
 * to wide, with named id and time columns; saved as a new catalog dataset.
 */
export function ReshapeTab() {
  const [datasetId, setDatasetId] = useState('');
  const [direction, setDirection] = useState<ReshapeDirection>('wide_to_long');
  const [idColumns, setIdColumns] = useState<string[]>([]);
  const [valueColumns, setValueColumns] = useState<string[]>([]);
  const [timeName, setTimeName] = useState('year');
  const [valueName, setValueName] = useState('value');
  const [dropMissing, setDropMissing] = useState(false);
  const [timeColumn, setTimeColumn] = useState('');
  const [valueColumn, setValueColumn] = useState('');
  const [prefix, setPrefix] = useState('');
  const [name, setName] = useState('');
  const columns = useDatasetColumns(datasetId || undefined);
  const reshape = useReshape();
  const names = columns.columns.map((c) => c.name);
  const years = names.filter((n) => !idColumns.includes(n) && columnYear(n) !== null);
  const others = names.filter((n) => !idColumns.includes(n));

  const spec: ReshapeSpec =
    direction === 'wide_to_long'
      ? {
          direction,
          idColumns,
          ...(valueColumns.length > 0 ? { valueColumns } : {}),
          timeName: timeName.trim(),
          valueName: valueName.trim(),
          dropMissing,
        }
      : { direction, idColumns, timeColumn, valueColumn, prefix };
  const ready =
    datasetId !== '' &&
    idColumns.length > 0 &&
    name.trim() !== '' &&
    (direction === 'wide_to_long'
      ? timeName.trim() !== '' && valueName.trim() !== ''
      : timeColumn !== '' && valueColumn !== '');

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <DatasetPicker
            label="Dataset"
            value={datasetId}
            onChange={(id) => {
              setDatasetId(id);
              setIdColumns([]);
              setValueColumns([]);
              setTimeColumn('');
              setValueColumn('');
              reshape.reset();
            }}
          />
          <TextField
            select
            size="small"
            label="Direction"
            value={direction}
            onChange={(e) => setDirection(e.target.value as ReshapeDirection)}
            sx={{ minWidth: 180 }}
            helperText=" "
          >
            {(Object.keys(DIRECTIONS) as ReshapeDirection[]).map((d) => (
              <MenuItem key={d} value={d}>
                {DIRECTIONS[d].label}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <Typography variant="body2" color="textSecondary">
          {DIRECTIONS[direction].help}
        </Typography>
        {columns.isError && <Alert severity="warning">{columns.error.message}</Alert>}
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ flexWrap: 'wrap' }}>
          <ColumnsSelect
            label="Id columns"
            columns={names}
            value={idColumns}
            onChange={setIdColumns}
            helperText="What identifies a row, e.g. Country Name and Country Code"
          />
          {direction === 'wide_to_long' ? (
            <ColumnsSelect
              label="Value columns (optional)"
              columns={others}
              value={valueColumns}
              onChange={setValueColumns}
              helperText={
                years.length > 0
                  ? `Empty: the ${years.length} columns named by a year (${years[0]} … ${years[years.length - 1]})`
                  : 'Empty: every column named by a year'
              }
            />
          ) : (
            <>
              <ColumnSelect
                label="Time column"
                columns={others}
                value={timeColumn}
                onChange={setTimeColumn}
              />
              <ColumnSelect
                label="Value column"
                columns={others.filter((c) => c !== timeColumn)}
                value={valueColumn}
                onChange={setValueColumn}
              />
            </>
          )}
        </Stack>
        {direction === 'wide_to_long' ? (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              size="small"
              label="Name of the time column"
              value={timeName}
              onChange={(e) => setTimeName(e.target.value)}
            />
            <TextField
              size="small"
              label="Name of the value column"
              value={valueName}
              onChange={(e) => setValueName(e.target.value)}
            />
            <FormControlLabel
              control={
                <Checkbox
                  checked={dropMissing}
                  onChange={(e) => setDropMissing(e.target.checked)}
                />
              }
              label="Leave out empty cells"
            />
          </Stack>
        ) : (
          <TextField
            size="small"
            label="Prefix of the new columns (optional)"
            value={prefix}
            onChange={(e) => setPrefix(e.target.value)}
            helperText='e.g. "gdp_" gives gdp_1960, gdp_1961, ...'
            sx={{ maxWidth: 360 }}
          />
        )}
        <SaveAsDataset
          name={name}
          onNameChange={setName}
          label="Reshape and save"
          disabled={!ready}
          onSave={() => reshape.mutate({ id: datasetId, request: { name: name.trim(), spec } })}
          mutation={reshape}
        />
      </Stack>
    </Paper>
  );
}
