import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ExecuteCodeReply } from '../../../common/teams/code';

export type ExecutionView =
  | { state: 'idle' }
  | { state: 'running' }
  /** The call failed (nothing ran): the server's or the screen's message. */
  | { state: 'failed'; message: string }
  | { state: 'done'; reply: ExecuteCodeReply };

const preSx = {
  m: 0,
  p: 1.5,
  borderRadius: 1,
  bgcolor: 'action.hover',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.8125rem',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  maxHeight: 360,
  overflow: 'auto',
} as const;

/**
 * The execution result panel under the editor: the program's output as it printed it, the error
 * when it failed or hit a limit, and the figures it wrote, shown under the output as in a
 * notebook (PNG and SVG go in <img>, so an SVG's scripts never run).
 */
export function ExecutionPanel({ view }: { view: ExecutionView }) {
  if (view.state === 'idle') return null;
  if (view.state === 'running') {
    return (
      <Typography role="status" variant="body2" color="textSecondary" sx={{ mt: 2 }}>
        Running in the sandbox...
      </Typography>
    );
  }
  if (view.state === 'failed') {
    return (
      <Alert severity="error" sx={{ mt: 2 }} role="alert">
        {view.message}
      </Alert>
    );
  }
  const { reply } = view;
  return (
    <Box
      component="section"
      aria-label="Execution result"
      data-testid="execution-result"
      sx={{ mt: 2 }}
    >
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'baseline' }}>
        <Typography variant="subtitle2" component="h3">
          Execution result
        </Typography>
        <Typography variant="caption" color="textSecondary">
          {(reply.durationMs / 1000).toFixed(1)} s, limit {reply.timeLimitSeconds} s
        </Typography>
      </Stack>
      {reply.error ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {reply.error}
        </Alert>
      ) : (
        <Alert severity="success" sx={{ mb: 1 }}>
          Finished without error
        </Alert>
      )}
      {reply.workingFiles.length > 0 && (
        <Typography variant="caption" color="textSecondary" component="p" sx={{ mb: 1 }}>
          Read-only input files: {reply.workingFiles.map((f) => f.path).join(', ')}
        </Typography>
      )}
      <Box component="pre" sx={preSx} data-testid="execution-output">
        {reply.output || '(no output)'}
      </Box>
      {reply.figures.length > 0 && (
        <Stack spacing={2} sx={{ mt: 2 }}>
          {reply.figures.map((f) => (
            <Box key={f.name} component="figure" sx={{ m: 0 }}>
              <Box
                component="img"
                src={`data:${f.mimeType};base64,${f.base64}`}
                alt={`Figure ${f.name} written by the code`}
                sx={{ maxWidth: '100%', bgcolor: 'common.white', borderRadius: 1 }}
              />
              <Typography component="figcaption" variant="caption" color="textSecondary">
                {f.name}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
      {reply.figuresSkipped.length > 0 && (
        <Typography variant="caption" color="textSecondary">
          Not shown (too large or too many): {reply.figuresSkipped.join(', ')}
        </Typography>
      )}
    </Box>
  );
}

export { preSx };
