import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Dataset } from '../../../../common/datasets';

/** What a transformation saved: the new catalog entry and what was done, counted. */
export function SavedNotice({ result }: { result: { dataset: Dataset; notes: string[] } }) {
  return (
    <Alert severity="success" sx={{ mt: 2 }}>
      <Typography variant="subtitle2" component="p">
        Saved “{result.dataset.name}” in the catalog (
        {result.dataset.recordCount?.toLocaleString('en') ?? '?'} rows,{' '}
        {result.dataset.fields.length} columns).
      </Typography>
      {result.notes.map((n) => (
        <Typography key={n} variant="body2">
          {n}
        </Typography>
      ))}
    </Alert>
  );
}

type SavedResult = { dataset: Dataset; notes: string[] };

/**
 * The end of every Explorer transformation form (clean, combine, engineer, reshape): the new
 * dataset's name, the button that runs and saves it (with a spinner while it runs), then the
 * server's refusal or what was saved.
 */
export function SaveAsDataset({
  name,
  onNameChange,
  label,
  disabled,
  onSave,
  mutation,
}: {
  name: string;
  onNameChange: (name: string) => void;
  /** The button's text, e.g. "Reshape and save". */
  label: string;
  disabled: boolean;
  onSave: () => void;
  mutation: { isPending: boolean; error: Error | null; data: SavedResult | undefined };
}) {
  return (
    <>
      <TextField
        size="small"
        label="Name of the new dataset"
        value={name}
        onChange={(e) => onNameChange(e.target.value)}
        sx={{ maxWidth: 480 }}
      />
      <div>
        <Button
          variant="contained"
          disabled={disabled || mutation.isPending}
          startIcon={
            mutation.isPending ? <CircularProgress size={16} color="inherit" /> : undefined
          }
          onClick={onSave}
        >
          {label}
        </Button>
      </div>
      {mutation.error && <Alert severity="error">{mutation.error.message}</Alert>}
      {mutation.data && <SavedNotice result={mutation.data} />}
    </>
  );
}
