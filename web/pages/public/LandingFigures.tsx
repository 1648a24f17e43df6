import { useQuery } from '@tanstack/react-query';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  PUBLIC_FIGURES_CACHE_SECONDS,
  publicFiguresReplySchema,
  type PublicFigures,
} from '../../../common/public-figures';
import { checkedApi, unwrap } from '../../api/client';

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

function useLandingFigures() {
  return useQuery({
    queryKey: ['public-figures'],
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(publicFiguresReplySchema, '/api/public/figures', signal)).then(
        (r) => r.data,
      ),
    staleTime: PUBLIC_FIGURES_CACHE_SECONDS * 1000,
    retry: false,
  });
}

/** The hero's counts of this install; nothing while loading, on failure or when all are 0. */
export function LandingFigures() {
  const query = useLandingFigures();
  const figures = query.data ? figuresOf(query.data) : [];
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
