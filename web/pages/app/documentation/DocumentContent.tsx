import { lazy, Suspense } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import type { DocumentFormat } from '../../../../common/documents';

// Markdown, math and KaTeX's CSS are most of this page's weight: they load when a Markdown
// document is first opened, not with the list.
const MarkdownView = lazy(() =>
  import('../../../components/MarkdownView').then((m) => ({ default: m.MarkdownView })),
);

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * A document's content by format: Markdown (with KaTeX math) rendered, a PDF's extracted text
 * (labelled as such: the layout, figures and formulas are in the file), the rest as text.
 */
export function DocumentContent({ format, content }: { format: DocumentFormat; content: string }) {
  if (format === 'pdf') {
    return (
      <>
        <Alert severity="info" sx={{ mb: 1.5 }} data-testid="pdf-text-note">
          {content.trim()
            ? 'The text extracted from this PDF. Download the file for its layout, figures and formulas.'
            : 'No text could be extracted from this PDF (it may be a scan). Download it to read it.'}
        </Alert>
        {content.trim() && <TextBlock text={content} wrap />}
      </>
    );
  }
  if (format === 'md') {
    return (
      <Suspense
        fallback={<Skeleton variant="rounded" height={160} aria-label="Loading document" />}
      >
        <MarkdownView source={content} />
      </Suspense>
    );
  }
  const text = format === 'json' ? prettyJson(content) : content;
  return <TextBlock text={text} wrap={format !== 'csv'} />;
}

function TextBlock({ text, wrap }: { text: string; wrap: boolean }) {
  return (
    <Box
      component="pre"
      tabIndex={0}
      aria-label="Document content"
      sx={{
        m: 0,
        p: 2,
        borderRadius: 1,
        bgcolor: 'action.hover',
        overflow: 'auto',
        maxHeight: '70vh',
        fontSize: '0.85rem',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        whiteSpace: wrap ? 'pre-wrap' : 'pre',
        overflowWrap: 'anywhere',
      }}
    >
      {text}
    </Box>
  );
}
