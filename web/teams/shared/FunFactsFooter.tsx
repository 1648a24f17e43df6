import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import { DRAWER_WIDTH, FUN_FACT_ROTATION_MS } from '../../../common/constants';
import { FUN_FACTS } from './funFacts';

/**
 * Space (theme units) a page keeps free at its bottom for the bar: none, since the footer keeps
 * its own (an in-flow spacer as tall as the bar, gone with the bar when it is dismissed).
 */
export const FUN_FACTS_FOOTER_SPACE = 0;

/** The space the fixed bar takes (theme units): one line on phones, up to two lines above. */
const BAR_SPACE = { xs: 6, sm: 11 } as const;

/** localStorage: the researcher hid the fun facts (on this browser). */
export const FUN_FACTS_DISMISSED_KEY = 'econagents.funFactsDismissed';

function readDismissed(): boolean {
  try {
    return localStorage.getItem(FUN_FACTS_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

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
 * On phones the fact takes one line (cut with an ellipsis; the whole fact is its title). Readers
 * can hide the bar for good (remembered in this browser).
 */
export function FunFactsFooter({
  facts = FUN_FACTS,
  intervalMs = FUN_FACT_ROTATION_MS,
  random = Math.random,
}: FunFactsFooterProps) {
  const [index, setIndex] = useState(() => Math.floor(random() * facts.length));
  const [paused, setPaused] = useState(false);
  const [dismissed, setDismissed] = useState(readDismissed);

  useEffect(() => {
    if (dismissed || paused || facts.length <= 1) return;
    const timer = setInterval(
      () => setIndex((i) => nextFactIndex(i, facts.length, random)),
      intervalMs,
    );
    return () => clearInterval(timer);
  }, [dismissed, paused, facts.length, intervalMs, random]);

  const fact = facts[index % Math.max(facts.length, 1)] ?? '';
  if (dismissed) return null;

  const dismiss = () => {
    try {
      localStorage.setItem(FUN_FACTS_DISMISSED_KEY, '1');
    } catch {
      // Private mode without storage: hidden for this visit only.
    }
    setDismissed(true);
  };

  return (
    <>
      <Box
        aria-hidden
        sx={{ height: (t) => ({ xs: t.spacing(BAR_SPACE.xs), sm: t.spacing(BAR_SPACE.sm) }) }}
      />
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
          py: { xs: 0.5, sm: 1 },
        }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <LightbulbOutlined color="secondary" aria-hidden sx={{ fontSize: { xs: 20, sm: 24 } }} />
          <Typography
            variant="body2"
            color="textSecondary"
            data-testid="fun-fact"
            title={fact}
            sx={{
              flex: 1,
              minWidth: 0,
              // One line on phones: the bar must not eat the screen.
              whiteSpace: { xs: 'nowrap', sm: 'normal' },
              overflow: { xs: 'hidden', sm: 'visible' },
              textOverflow: { xs: 'ellipsis', sm: 'clip' },
            }}
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
          <IconButton size="small" onClick={dismiss} aria-label="Hide fun facts">
            <Close fontSize="small" />
          </IconButton>
        </Stack>
      </Paper>
    </>
  );
}
