import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

export interface PageHeaderProps {
  title: string;
  /** One line of context under the title. */
  subtitle?: ReactNode;
  /** Buttons on the right (they wrap below the title on a phone). */
  actions?: ReactNode;
  /** Heading level; pages use h1, sections inside a page may use h2. */
  component?: 'h1' | 'h2';
}

/** The header every page opens with: title, one line of context, actions. */
export function PageHeader({ title, subtitle, actions, component = 'h1' }: PageHeaderProps) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{
        mb: 3,
        alignItems: { xs: 'stretch', sm: 'flex-start' },
        justifyContent: 'space-between',
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography
          variant="h4"
          component={component}
          sx={{ fontSize: { xs: '1.6rem', md: '2rem' } }}
        >
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body1" color="textSecondary" sx={{ mt: 0.5 }}>
            {subtitle}
          </Typography>
        )}
      </Box>
      {actions && (
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0, flexWrap: 'wrap', rowGap: 1 }}>
          {actions}
        </Stack>
      )}
    </Stack>
  );
}
