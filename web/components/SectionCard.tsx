import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/**
 * A titled panel (dashboard, project page): an outlined section named by its h2 heading, one
 * line of context and an optional action on the right.
 */
export function SectionCard({
  title,
  subtitle,
  action,
  fillHeight = false,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  action?: ReactNode;
  /** Stretch to the height of the grid row it sits in. */
  fillHeight?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, md: 2.5 }, ...(fillHeight ? { height: '100%' } : {}) }}
    >
      <Stack
        direction="row"
        spacing={1}
        sx={{ mb: 2, alignItems: 'flex-start', justifyContent: 'space-between' }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h2">
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="textSecondary">
              {subtitle}
            </Typography>
          )}
        </Box>
        {action && <Box sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>{action}</Box>}
      </Stack>
      {children}
    </Paper>
  );
}
