import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';

export interface LoadingSkeletonProps {
  /** rows: a list or table; cards: a grid of cards; page: header plus rows. */
  variant?: 'rows' | 'cards' | 'page';
  /** How many rows or cards. */
  count?: number;
  /** Read by screen readers while loading. */
  label?: string;
}

/** Placeholder shapes while a list or page loads: lists load with skeletons, not spinners. */
export function LoadingSkeleton({
  variant = 'rows',
  count = 4,
  label = 'Loading',
}: LoadingSkeletonProps) {
  const items = Array.from({ length: count }, (_, i) => i);
  return (
    <Box role="status" aria-live="polite" aria-label={label} aria-busy="true">
      {variant === 'page' && (
        <Box sx={{ mb: 3 }}>
          <Skeleton variant="text" width="40%" height={44} />
          <Skeleton variant="text" width="65%" />
        </Box>
      )}
      {variant === 'cards' ? (
        <Grid container spacing={2}>
          {items.map((i) => (
            <Grid key={i} size={{ xs: 12, sm: 6, md: 4 }}>
              <Skeleton variant="rounded" height={140} />
            </Grid>
          ))}
        </Grid>
      ) : (
        <Stack spacing={1}>
          {items.map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
    </Box>
  );
}
