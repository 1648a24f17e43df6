import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FormEvent, ReactNode } from 'react';

/** The outlined "Configuration" form a team screen starts its session from. */
export function ConfigurationForm({
  onSubmit,
  children,
}: {
  onSubmit: (event: FormEvent) => unknown;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" component="form" onSubmit={onSubmit} sx={{ p: 2, mb: 2 }} noValidate>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 2 }}>
        Configuration
      </Typography>
      {children}
    </Paper>
  );
}

/** A row of form fields: side by side from the small breakpoint, stacked below it. */
export function FormRow({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
      {children}
    </Stack>
  );
}

/**
 * The form's submit button ('Working...' while the team runs or a call is out), with any other
 * buttons of the row after it.
 */
export function StartButtonRow({
  label,
  running,
  children,
}: {
  label: string;
  running: boolean;
  children?: ReactNode;
}) {
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
      <Button type="submit" variant="contained" disabled={running}>
        {running ? 'Working...' : label}
      </Button>
      {children}
    </Stack>
  );
}
