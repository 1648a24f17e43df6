import Paper from '@mui/material/Paper';
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
