import Alert from '@mui/material/Alert';
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
