import { useEffect, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import { DRAWER_WIDTH, FUN_FACT_ROTATION_MS } from '../../../common/constants';
import { FUN_FACTS } from './funFacts';

/** Space (theme units) a page keeps free at its bottom so the fixed bar covers nothing. */
export const FUN_FACTS_FOOTER_SPACE = { xs: 16, sm: 11 } as const;

export interface FunFactsFooterProps {
  facts?: readonly string[];
  intervalMs?: number;
  /** A number in [0, 1); tests pass a scripted one. */
  random?: () => number;
}

/** Picks another fact than the current one, at random. */
export function nextFactIndex(current: number, count: number, random: () => number): number {
  if (count <= 1) return 0;
  const step = 1 + Math.floor(random() * (count - 1));
  return (current + step) % count;
}

/**
 * The fixed footer bar of the team screens: a fun fact about economics or
 * literature reviews, replaced by another one at random every 5 seconds. Readers can pause it
 * (WCAG 2.2.2); it is not a live region, so screen readers are not interrupted every 5 s.
 */
export function FunFactsFooter({
  facts = FUN_FACTS,
  intervalMs = FUN_FACT_ROTATION_MS,
  random = Math.random,
}: FunFactsFooterProps) {
  const [index, setIndex] = useState(() => Math.floor(random() * facts.length));
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused || facts.length <= 1) return;
    const timer = setInterval(
      () => setIndex((i) => nextFactIndex(i, facts.length, random)),
      intervalMs,
    );
    return () => clearInterval(timer);
  }, [paused, facts.length, intervalMs, random]);

  const fact = facts[index % Math.max(facts.length, 1)] ?? '';

  return (
    <Paper
      component="aside"
      aria-label="Fun fact"
      square
      elevation={0}
      sx={{
        position: 'fixed',
        bottom: 0,
        right: 0,
        left: { xs: 0, md: `${DRAWER_WIDTH}px` },
        zIndex: (t) => t.zIndex.appBar - 1,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        px: { xs: 2, sm: 3 },
        py: 1,
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <LightbulbOutlined color="secondary" aria-hidden />
        <Typography
          variant="body2"
          color="text.secondary"
          data-testid="fun-fact"
          sx={{ flex: 1, minWidth: 0 }}
        >
          <strong>Did you know?</strong> {fact}
        </Typography>
        <IconButton
          size="small"
          onClick={() => setPaused((p) => !p)}
          aria-label={paused ? 'Resume fun facts' : 'Pause fun facts'}
          aria-pressed={paused}
        >
          {paused ? <PlayArrow fontSize="small" /> : <Pause fontSize="small" />}
        </IconButton>
      </Stack>
    </Paper>
  );
}
