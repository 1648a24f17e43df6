import { lazy, Suspense } from 'react';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import type { DocumentFormat } from '../../../../common/documents';

// Markdown, math and KaTeX's CSS are most of this page's weight: they load when a Markdown
// document is first opened, not with the list.
const MarkdownView = lazy(() =>
  import('./MarkdownView').then((m) => ({ default: m.MarkdownView })),
);

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A document's content by format: Markdown (with KaTeX math) rendered, the rest as text. */
export function DocumentContent({ format, content }: { format: DocumentFormat; content: string }) {
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
        whiteSpace: format === 'csv' ? 'pre' : 'pre-wrap',
        overflowWrap: 'anywhere',
      }}
    >
      {text}
    </Box>
  );
}
