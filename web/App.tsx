import { useEffect, useState } from 'react';
import { Box, CssBaseline, Typography } from '@mui/material';
import { DEFAULT_VERSION, DEFAULT_VERSION_PREFIX } from '../common/constants';

/** Placeholder shell: shows "{prefix} {version}" from /version.json. */
export function App() {
  const [label, setLabel] = useState(`${DEFAULT_VERSION_PREFIX} ${DEFAULT_VERSION}`);
  useEffect(() => {
    fetch('/version.json')
      .then((r) => (r.ok ? (r.json() as Promise<{ version: string; prefix: string }>) : undefined))
      .then((v) => v && setLabel(`${v.prefix} ${v.version}`))
      .catch((err: unknown) => console.error('Failed to load version', err));
  }, []);
  return (
    <Box component="main" sx={{ p: 4 }}>
      <CssBaseline />
      <Typography variant="h4" component="h1">
        EconAgents
      </Typography>
      <Typography data-testid="version">{label}</Typography>
    </Box>
  );
}
