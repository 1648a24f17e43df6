import type { SxProps, Theme } from '@mui/material/styles';

/**
 * Filled chip colours with white text that pass WCAG AA (4.5:1) in both colour schemes; MUI's
 * default info and warning chips do not (3.9:1 and 3.1:1).
 */
export type ChipTone = 'neutral' | 'info' | 'warning' | 'success' | 'error';

const FILL: Record<Exclude<ChipTone, 'neutral'>, string> = {
  info: '#1565c0', // 5.8:1 with white
  warning: '#b45309', // 5.0:1
  success: '#2e7d32', // 5.1:1
  error: '#c62828', // 5.6:1
};

export function chipToneSx(tone: ChipTone): SxProps<Theme> {
  if (tone === 'neutral') return { '& .MuiChip-icon': { color: 'text.secondary' } };
  return {
    bgcolor: FILL[tone],
    color: '#ffffff',
    '& .MuiChip-icon': { color: 'inherit' },
  };
}
