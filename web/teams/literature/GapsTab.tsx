import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  GAP_TEXT_MIN,
  gapText,
  trendName,
  type ResearchGap,
  type Trend,
} from '../../../common/teams/literature';
import { OriginMark } from '../../components/OriginMark';

function growthLabel(growth: number | null): string {
  if (growth === null) return 'no earlier works';
  return `${growth >= 0 ? '+' : ''}${Math.round(growth * 100)}%`;
}

/** Publication counts by year as small bars (the numbers are in the title and the description). */
function CountBars({ counts }: { counts: Trend['counts'] }) {
  const max = Math.max(1, ...counts.map((c) => c.count));
  return (
    <Box
      role="img"
      aria-label={counts.map((c) => `${c.year}: ${c.count}`).join(', ')}
      sx={{ display: 'flex', alignItems: 'flex-end', gap: '2px', height: 32, mt: 1 }}
    >
      {counts.map((c) => (
        <Box
          key={c.year}
          title={`${c.year}: ${c.count}`}
          sx={{
            width: 8,
            height: `${Math.max(2, (c.count / max) * 32)}px`,
            bgcolor: 'primary.main',
            opacity: 0.7,
          }}
        />
      ))}
    </Box>
  );
}

/** Research Gaps, with Emerging Trends below. */
export function GapsTab({
  gaps,
  trends,
}: {
  gaps: readonly ResearchGap[];
  trends: readonly Trend[];
}) {
  // A gap whose text is too short to say anything is not shown.
  const shown = gaps.filter((g) => gapText(g).length > GAP_TEXT_MIN);
  return (
    <Stack spacing={3}>
      <section aria-labelledby="lit-gaps-heading">
        <Typography id="lit-gaps-heading" variant="h6" component="h2" gutterBottom>
          Research Gaps
        </Typography>
        {shown.length === 0 ? (
          <Typography color="textSecondary">No research gaps yet.</Typography>
        ) : (
          <Stack spacing={1.5}>
            {shown.map((g, i) => (
              <Paper key={i} variant="outlined" sx={{ p: 2 }}>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{
                    alignItems: 'flex-start',
                    justifyContent: 'space-between',
                    flexWrap: 'wrap',
                    rowGap: 0.5,
                  }}
                >
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                    {gapText(g)}
                  </Typography>
                  <OriginMark origin="model" />
                </Stack>
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  <strong>Opportunity:</strong> {g.opportunity}
                </Typography>
                <Typography variant="body2">
                  <strong>Recommendation:</strong> {g.recommendation}
                </Typography>
                <Stack
                  direction="row"
                  spacing={0.5}
                  sx={{ mt: 1, flexWrap: 'wrap' }}
                  aria-label="Supporting papers"
                >
                  {g.supporting_papers.map((n) => (
                    <Chip key={n} size="small" label={`[${n}]`} />
                  ))}
                </Stack>
              </Paper>
            ))}
          </Stack>
        )}
      </section>
      <section aria-labelledby="lit-trends-heading">
        <Typography id="lit-trends-heading" variant="h6" component="h2" gutterBottom>
          Emerging Trends
        </Typography>
        {trends.length === 0 ? (
          <Typography color="textSecondary">No trends computed yet.</Typography>
        ) : (
          <Stack spacing={1.5}>
            {trends.map((t, i) => (
              <Paper key={i} variant="outlined" sx={{ p: 2 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                    {trendName(t)}
                  </Typography>
                  <OriginMark origin="computed" />
                  <Chip
                    size="small"
                    color={t.kind === 'emerging' ? 'success' : 'default'}
                    label={`${t.kind === 'overall' ? 'Your question' : t.kind === 'emerging' ? 'Emerging' : 'Topic'} · ${growthLabel(t.growth)}`}
                  />
                </Stack>
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  {t.description}
                </Typography>
                {t.counts.length > 0 && <CountBars counts={t.counts} />}
              </Paper>
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}
