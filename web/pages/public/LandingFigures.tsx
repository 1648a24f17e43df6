import { useEffect, useState } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PublicFigures } from '../../../common/public-figures';

/** One figure of the hero: a count and its label, singular or plural by the count. */
export interface Figure {
  value: string;
  label: string;
}

/**
 * The hero's figures from this install's counts (GET /api/public/figures): a figure whose count
 * is 0 is left out rather than shown as "0", and nothing is claimed that was not counted.
 */
export function figuresOf(counts: PublicFigures): Figure[] {
  const figure = (n: number, one: string, many: string): Figure[] =>
    n > 0 ? [{ value: n.toLocaleString('en'), label: n === 1 ? one : many }] : [];
  return [
    ...figure(counts.researchers, 'Researcher', 'Researchers'),
    ...figure(
      counts.completedSessions,
      'Research session completed',
      'Research sessions completed',
    ),
  ];
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/**
 * GET /api/public/figures, read with fetch and checked by hand: the landing page carries
 * neither the query library nor zod (its route stays small). Undefined on any failure.
 */
async function fetchFigures(signal: AbortSignal): Promise<PublicFigures | undefined> {
  try {
    const res = await fetch('/api/public/figures', { signal });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data?: Record<string, unknown> };
    const { researchers, completedSessions } = body.data ?? {};
    if (!isCount(researchers) || !isCount(completedSessions)) return undefined;
    return { researchers, completedSessions };
  } catch {
    return undefined;
  }
}

function useLandingFigures(): PublicFigures | undefined {
  const [figures, setFigures] = useState<PublicFigures>();
  useEffect(() => {
    const abort = new AbortController();
    void fetchFigures(abort.signal).then((f) => {
      if (!abort.signal.aborted) setFigures(f);
    });
    return () => abort.abort();
  }, []);
  return figures;
}

/** The hero's counts of this install; nothing while loading, on failure or when all are 0. */
export function LandingFigures() {
  const counts = useLandingFigures();
  const figures = counts ? figuresOf(counts) : [];
  if (figures.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ alignItems: { md: 'flex-end' } }}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ width: '100%', justifyContent: { md: 'flex-end' } }}
        data-testid="landing-figures"
      >
        {figures.map((f) => (
          <Paper
            key={f.label}
            elevation={0}
            sx={{
              flex: { xs: 1, md: '0 0 200px' },
              p: 3,
              textAlign: 'center',
              bgcolor: 'rgba(255,255,255,0.12)',
              color: '#fff',
              border: '1px solid rgba(255,255,255,0.25)',
            }}
          >
            <Typography component="p" sx={{ fontSize: { xs: 36, md: 44 }, fontWeight: 800 }}>
              {f.value}
            </Typography>
            <Typography component="p" sx={{ opacity: 0.9 }}>
              {f.label}
            </Typography>
          </Paper>
        ))}
      </Stack>
      <Typography variant="body2" sx={{ opacity: 0.85 }}>
        Counted on this server
      </Typography>
    </Stack>
  );
}
