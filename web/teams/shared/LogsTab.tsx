import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Check from '@mui/icons-material/Check';

export interface LogsTabProps {
  logs: readonly string[];
  /** Accessible name of the console. */
  label?: string;
  /** Shown while there is no line yet. */
  emptyText?: string;
  /** Height of the scrolling console. */
  height?: number | string;
}

/** How close to the bottom (px) still counts as "following" the log. */
const FOLLOW_SLACK_PX = 24;
const COPIED_MS = 2000;

/**
 * The team's console (the Logs or Console Logs tab): a monospace log that follows new lines
 * while the reader is at the bottom (and stays put when they scrolled up to read), with a copy
 * button. It is a log region, so screen readers hear new lines politely.
 */
export function LogsTab({
  logs,
  label = 'Console logs',
  emptyText = 'No log lines yet. They appear here as the team works.',
  height = 360,
}: LogsTabProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');

  useLayoutEffect(() => {
    const box = boxRef.current;
    if (box && following.current) box.scrollTop = box.scrollHeight;
  }, [logs.length]);

  useEffect(() => {
    if (copied === 'idle') return;
    const t = setTimeout(() => setCopied('idle'), COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  const onScroll = () => {
    const box = boxRef.current;
    if (!box) return;
    following.current = box.scrollHeight - box.scrollTop - box.clientHeight <= FOLLOW_SLACK_PX;
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(logs.join('\n'));
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="body2" color="textSecondary">
          {logs.length === 1 ? '1 line' : `${logs.length} lines`}
        </Typography>
        <Button
          size="small"
          startIcon={copied === 'copied' ? <Check /> : <ContentCopy />}
          onClick={() => void copy()}
          disabled={logs.length === 0}
        >
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy logs'}
        </Button>
      </Stack>
      <Box
        ref={boxRef}
        role="log"
        aria-label={label}
        aria-live="polite"
        tabIndex={0}
        onScroll={onScroll}
        sx={{
          height,
          overflowY: 'auto',
          bgcolor: '#0f1724',
          color: '#d7e1f0',
          borderRadius: 1,
          p: 1.5,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
          fontSize: '0.8125rem',
          lineHeight: 1.6,
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.light' },
        }}
      >
        {logs.length === 0 ? (
          <Box component="p" sx={{ m: 0, color: '#9fb0c8' }}>
            {emptyText}
          </Box>
        ) : (
          <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {logs.map((line, i) => (
              <Box
                component="li"
                key={i}
                sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', display: 'flex', gap: 1.5 }}
              >
                <Box
                  component="span"
                  aria-hidden
                  sx={{ color: '#7d8ca3', userSelect: 'none', minWidth: '3ch', textAlign: 'right' }}
                >
                  {i + 1}
                </Box>
                <span>{line}</span>
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </Stack>
  );
}
