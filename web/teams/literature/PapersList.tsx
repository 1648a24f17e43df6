import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LITERATURE_SOURCE_LABELS, type Paper } from '../../../common/teams/literature';
import { OriginMark } from '../../components/OriginMark';

function authorsText(authors: string[]): string {
  if (authors.length <= 3) return authors.join(', ');
  return `${authors.slice(0, 3).join(', ')} et al.`;
}

/** The retrieved papers with the fields extracted from their abstracts. */
export function PapersList({ papers }: { papers: readonly Paper[] }) {
  if (papers.length === 0) return null;
  return (
    <Stack spacing={2} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Papers">
      {papers.map((p) => (
        <Box
          component="li"
          key={p.number}
          sx={{ borderBottom: 1, borderColor: 'divider', pb: 1.5 }}
        >
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            [{p.number}]{' '}
            {p.url ? (
              <Link href={p.url} target="_blank" rel="noopener noreferrer">
                {p.title}
              </Link>
            ) : (
              p.title
            )}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {authorsText(p.authors)}
            {p.year ? ` (${p.year})` : ''}
            {p.venue ? ` · ${p.venue}` : ''}
            {p.citations !== undefined ? ` · cited ${p.citations} times` : ''}
          </Typography>
          <Stack direction="row" spacing={0.5} sx={{ my: 0.5, flexWrap: 'wrap' }}>
            {p.sources.map((s) => (
              <Chip key={s} size="small" variant="outlined" label={LITERATURE_SOURCE_LABELS[s]} />
            ))}
          </Stack>
          {p.extractedFrom === 'abstract' ? (
            <>
              <Box sx={{ my: 0.5 }}>
                <OriginMark origin="model" />
              </Box>
              <Box
                component="dl"
                sx={{ m: 0, '& dt': { fontWeight: 600, mt: 0.5 }, '& dd': { ml: 0 } }}
              >
                <Typography component="dt" variant="body2">
                  Key insight
                </Typography>
                <Typography component="dd" variant="body2">
                  {p.key_insight}
                </Typography>
                <Typography component="dt" variant="body2">
                  Methodology
                </Typography>
                <Typography component="dd" variant="body2">
                  {p.methodology}
                </Typography>
                <Typography component="dt" variant="body2">
                  Findings
                </Typography>
                <Typography component="dd" variant="body2">
                  {p.findings}
                </Typography>
              </Box>
            </>
          ) : (
            <Typography variant="body2" color="textSecondary">
              {p.abstract ? p.key_insight : 'No abstract was retrieved for this work.'}
            </Typography>
          )}
        </Box>
      ))}
    </Stack>
  );
}
