import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The product's text logo: a monogram and the name, linking home. */
export function BrandMark({ to = '/', onClick }: { to?: string; onClick?: () => void }) {
  return (
    <Box
      component={RouterLink}
      to={to}
      onClick={onClick}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        color: 'inherit',
        textDecoration: 'none',
        borderRadius: 1,
      }}
    >
      <Box
        aria-hidden
        sx={{
          width: 32,
          height: 32,
          borderRadius: 1.5,
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          fontWeight: 800,
          fontSize: 15,
          letterSpacing: '-0.04em',
        }}
      >
        EA
      </Box>
      <Typography component="span" variant="h6" sx={{ fontWeight: 700, letterSpacing: '-0.01em' }}>
        EconAgents
      </Typography>
    </Box>
  );
}
