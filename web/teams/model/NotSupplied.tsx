import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';

/** What the model was asked for and did not supply (the computed results stand without it). */
export function NotSupplied({ items }: { items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <Alert severity="warning" variant="outlined">
      <AlertTitle>Not supplied by the model</AlertTitle>
      <ul style={{ margin: 0, paddingLeft: 20 }}>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </Alert>
  );
}
