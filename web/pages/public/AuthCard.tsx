import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** The centred card the sign-in and registration forms sit in. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, md: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Box sx={{ mb: 3 }}>
          <Typography variant="h4" component="h1">
            {title}
          </Typography>
          <Typography color="textSecondary" sx={{ mt: 0.5 }}>
            {subtitle}
          </Typography>
        </Box>
        {children}
      </Paper>
    </Container>
  );
}
