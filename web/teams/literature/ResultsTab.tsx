import { lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import type { Paper, Verification } from '../../../common/teams/literature';
import { saveText } from '../../components/saveFile';
import { PapersList } from './PapersList';
import { datedFileName } from './rules';

// Markdown, math and KaTeX are most of the screen's weight: they load with the first report.
const MarkdownView = lazy(() =>
  import('../../components/MarkdownView').then((m) => ({ default: m.MarkdownView })),
);

export interface ResultsTabProps {
  report: string | undefined;
  papers: readonly Paper[];
  verification: Verification | null;
  /** Everything the session produced, for the JSON download. */
  snapshot: () => unknown;
}

/**
 * Results: the report (rendered with KaTeX, or its Markdown source) with text and JSON
 * downloads; before there is a report, the papers found so far.
 */
export function ResultsTab({ report, papers, verification, snapshot }: ResultsTabProps) {
  const [showCode, setShowCode] = useState(false);
  const downloadJson = () =>
    saveText(
      `${JSON.stringify(snapshot(), null, 2)}\n`,
      datedFileName('literature-review', 'json'),
      'application/json',
    );
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        {report && (
          <FormControlLabel
            control={<Switch checked={showCode} onChange={(e) => setShowCode(e.target.checked)} />}
            label="Show Markdown Code"
          />
        )}
        <Box sx={{ flexGrow: 1 }} />
        {report && (
          <Button
            variant="outlined"
            size="small"
            startIcon={<Download />}
            onClick={() =>
              saveText(report, datedFileName('literature-review', 'md'), 'text/markdown')
            }
          >
            Download report
          </Button>
        )}
        <Button variant="outlined" size="small" startIcon={<Download />} onClick={downloadJson}>
          Download JSON
        </Button>
      </Stack>
      {verification && (
        <Stack
          direction="row"
          spacing={1}
          sx={{ flexWrap: 'wrap', rowGap: 1 }}
          aria-label="Verification"
        >
          <Chip size="small" label={`${verification.citationsChecked} citations checked`} />
          <Chip
            size="small"
            color={
              verification.citationsRemoved.length + verification.referencesRemoved.length
                ? 'warning'
                : 'default'
            }
            label={`${verification.citationsRemoved.length + verification.referencesRemoved.length} removed by the verifier`}
          />
          <Chip
            size="small"
            color={verification.claimsFlagged.length ? 'warning' : 'default'}
            label={`${verification.claimsFlagged.length} of ${verification.claimsChecked} claims flagged`}
          />
          <Chip
            size="small"
            color={verification.figuresUnverified.length ? 'warning' : 'default'}
            label={`${verification.figuresUnverified.length} of ${verification.figuresChecked} figures unverified`}
          />
        </Stack>
      )}
      {report ? (
        showCode ? (
          <Box
            component="pre"
            aria-label="Report Markdown"
            sx={{
              p: 2,
              bgcolor: 'action.hover',
              borderRadius: 1,
              overflowX: 'auto',
              whiteSpace: 'pre-wrap',
              m: 0,
            }}
          >
            {report}
          </Box>
        ) : (
          <Box aria-label="Report" role="region">
            <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
              <MarkdownView source={report} />
            </Suspense>
          </Box>
        )
      ) : papers.length > 0 ? (
        <>
          <Typography variant="h6" component="h2">
            Papers ({papers.length})
          </Typography>
          <PapersList papers={papers} />
        </>
      ) : (
        <Typography color="textSecondary">
          The report appears here after the review reaches its third checkpoint.
        </Typography>
      )}
    </Stack>
  );
}
