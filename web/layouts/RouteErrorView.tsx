import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** The router's default error view: 'Unexpected Application Error!'. */
export function RouteErrorView({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <Box component="main" sx={{ p: { xs: 2, md: 6 }, maxWidth: 720, mx: 'auto' }}>
      <Stack spacing={2}>
        <Typography variant="h4" component="h1">
          Unexpected Application Error!
        </Typography>
        <Alert severity="error">{detail}</Alert>
        <Typography color="text.secondary">
          Reload the page to try again. If this keeps happening, go back to the start page.
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button variant="contained" onClick={() => window.location.reload()}>
            Reload
          </Button>
          {/* A plain link: the router itself may be what failed. */}
          <Button href="/">Go to the start page</Button>
        </Stack>
      </Stack>
    </Box>
  );
}
