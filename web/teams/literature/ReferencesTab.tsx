import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import { REFERENCE_LINE_MIN, type Reference } from '../../../common/teams/literature';
import { saveText } from '../../components/saveFile';
import { CITATION_FORMATS, formatReferences, type CitationFormat } from './exports';
import { datedFileName } from './rules';

/** The references with their links and dates, and citation downloads (BibTeX, RIS, CSL-JSON). */
export function ReferencesTab({ references }: { references: readonly Reference[] }) {
  const [error, setError] = useState<string>();
  // A line too short to name a work is not a reference.
  const shown = references.filter((r) => r.line.length > REFERENCE_LINE_MIN);

  const download = async (format: CitationFormat, extension: string) => {
    setError(undefined);
    try {
      const text = await formatReferences(shown, format);
      saveText(
        text,
        datedFileName('literature-references', extension),
        format === 'csl-json' ? 'application/json' : 'text/plain',
      );
    } catch (err) {
      setError(
        `The ${format} file could not be written: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };

  if (shown.length === 0) return <Typography color="textSecondary">No references yet.</Typography>;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        {CITATION_FORMATS.map(({ format, label, extension }) => (
          <Button
            key={format}
            variant="outlined"
            size="small"
            startIcon={<Download />}
            onClick={() => void download(format, extension)}
          >
            {label}
          </Button>
        ))}
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="References">
        {shown.map((r) => (
          <Box
            component="li"
            key={r.number}
            sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}
          >
            <Typography variant="body2">
              <strong>[{r.number}]</strong> {r.line}
            </Typography>
            <Typography variant="caption" color="textSecondary">
              {r.published ? `Published ${r.published}` : 'Publication date not given'}
              {r.url && (
                <>
                  {' · '}
                  <Link href={r.url} target="_blank" rel="noopener noreferrer">
                    {new URL(r.url).hostname}
                  </Link>
                </>
              )}
            </Typography>
          </Box>
        ))}
      </Box>
    </Stack>
  );
}
