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
  INTEGRATION_METHODS,
  JOIN_TYPES,
  type IntegrationMethod,
} from '../../../../common/teams/data';
import { DatasetPicker } from './DatasetPicker';
import { useDatasetColumns, useIntegrate } from './explorerApi';
import { SaveAsDataset } from './SavedNotice';

const METHOD_HELP: Record<IntegrationMethod, string> = {
  join: 'Rows matched on the keys, with the columns of both datasets.',
  union: 'Every row of the first dataset, plus the rows of the second whose keys it does not have.',
  intersect: 'The rows of the first dataset whose keys the second has.',
};

/** Data Integration: join, union or intersect two stored datasets on chosen keys; saved as a new dataset. */
export function IntegrationTab() {
  const [leftId, setLeftId] = useState('');
  const [rightId, setRightId] = useState('');
  const [method, setMethod] = useState<IntegrationMethod>('join');
  const [joinType, setJoinType] = useState<(typeof JOIN_TYPES)[number]>('inner');
  const [keys, setKeys] = useState<{ left: string; right: string }[]>([{ left: '', right: '' }]);
  const [name, setName] = useState('');
  const left = useDatasetColumns(leftId || undefined);
  const right = useDatasetColumns(rightId || undefined);
  const integrate = useIntegrate();
  const ready = leftId && rightId && name.trim() && keys.every((k) => k.left && k.right);

  const setKey = (i: number, side: 'left' | 'right', v: string) =>
    setKeys((ks) => ks.map((k, j) => (j === i ? { ...k, [side]: v } : k)));

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <DatasetPicker label="First dataset" value={leftId} onChange={setLeftId} />
          <DatasetPicker
            label="Second dataset"
            value={rightId}
            onChange={setRightId}
            exclude={leftId}
          />
          <TextField
            select
            size="small"
            label="Method"
            value={method}
            onChange={(e) => setMethod(e.target.value as IntegrationMethod)}
            sx={{ minWidth: 140 }}
            helperText=" "
          >
            {INTEGRATION_METHODS.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          {method === 'join' && (
            <TextField
              select
              size="small"
              label="Join type"
              value={joinType}
              onChange={(e) => setJoinType(e.target.value as typeof joinType)}
              sx={{ minWidth: 120 }}
              helperText=" "
            >
              {JOIN_TYPES.map((m) => (
                <MenuItem key={m} value={m}>
                  {m}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
        <Typography variant="body2" color="textSecondary">
          {METHOD_HELP[method]}
        </Typography>
        {(left.isError || right.isError) && (
          <Alert severity="warning">{left.error?.message ?? right.error?.message}</Alert>
        )}
        <Typography variant="subtitle2" component="h3">
          Keys
        </Typography>
        {keys.map((k, i) => (
          <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              select
              size="small"
              label={`Key ${i + 1} in the first`}
              value={left.columns.some((c) => c.name === k.left) ? k.left : ''}
              onChange={(e) => setKey(i, 'left', e.target.value)}
              sx={{ minWidth: 200 }}
            >
              {left.columns.map((c) => (
                <MenuItem key={c.name} value={c.name}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
            <Typography aria-hidden>=</Typography>
            <TextField
              select
              size="small"
              label={`Key ${i + 1} in the second`}
              value={right.columns.some((c) => c.name === k.right) ? k.right : ''}
              onChange={(e) => setKey(i, 'right', e.target.value)}
              sx={{ minWidth: 200 }}
            >
              {right.columns.map((c) => (
                <MenuItem key={c.name} value={c.name}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
            {keys.length > 1 && (
              <IconButton
                aria-label={`Remove key ${i + 1}`}
                onClick={() => setKeys((ks) => ks.filter((_, j) => j !== i))}
              >
                <DeleteOutline />
              </IconButton>
            )}
          </Stack>
        ))}
        <div>
          <Button
            startIcon={<Add />}
            onClick={() => setKeys((ks) => [...ks, { left: '', right: '' }])}
            disabled={keys.length >= 10}
          >
            Add a key
          </Button>
        </div>
        <SaveAsDataset
          name={name}
          onNameChange={setName}
          label="Combine and save"
          disabled={!ready}
          onSave={() =>
            integrate.mutate({
              leftId,
              rightId,
              name: name.trim(),
              spec: { method, keys, ...(method === 'join' ? { joinType } : {}) },
            })
          }
          mutation={integrate}
        />
      </Stack>
    </Paper>
  );
}
