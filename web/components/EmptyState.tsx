import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

export interface EmptyStateProps {
  /** An icon element, e.g. <FolderOpenIcon />. */
  icon?: ReactNode;
  /** Optional short heading above the sentence. */
  title?: string;
  /** One sentence that says what is missing. */
  message: ReactNode;
  /** The action that fills the empty state (a Button). */
  action?: ReactNode;
}

/** An empty list or screen: icon, one sentence and the action that fills it. */
export function EmptyState({ icon, title, message, action }: EmptyStateProps) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, textAlign: 'center' }}>
      <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
        {icon && (
          <Stack
            aria-hidden
            sx={{
              color: 'primary.main',
              '& svg': { fontSize: 48 },
              alignItems: 'center',
            }}
          >
            {icon}
          </Stack>
        )}
        {title && (
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
        )}
        <Typography color="textSecondary" sx={{ maxWidth: 520 }}>
          {message}
        </Typography>
        {action}
      </Stack>
    </Paper>
  );
}
