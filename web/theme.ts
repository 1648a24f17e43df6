import { createContext, useContext } from 'react';
import { createTheme } from '@mui/material/styles';

/**
 * The one theme of the web app: a calm, academic look with a deep
 * blue primary, a teal secondary, the system font stack and tabular figures, in a light and a dark
 * scheme. Colours are CSS variables switched by a class on <html>, so changing the mode does not
 * re-render the tree and 'system' follows prefers-color-scheme without flashing.
 */
const SYSTEM_FONTS = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  'sans-serif',
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
].join(',');

export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'class' },
  colorSchemes: {
    light: {
      palette: {
        primary: { main: '#1a3a6b', light: '#4a64a0', dark: '#0b1f44', contrastText: '#ffffff' },
        secondary: { main: '#00796b', light: '#48a999', dark: '#004c40', contrastText: '#ffffff' },
        // Darker than MUI's orange so small warning text and chips keep 4.5:1 contrast.
        warning: { main: '#b45309', light: '#d97706', dark: '#92400e', contrastText: '#ffffff' },
        success: { main: '#2e7d32', light: '#4caf50', dark: '#1b5e20', contrastText: '#ffffff' },
        background: { default: '#f5f7fb', paper: '#ffffff' },
        text: { primary: '#1b2230', secondary: '#4a5568' },
        divider: 'rgba(26, 58, 107, 0.12)',
      },
    },
    dark: {
      palette: {
        primary: { main: '#8fb0ec', light: '#b9cdf4', dark: '#5c7fc0', contrastText: '#0b1f44' },
        secondary: { main: '#4fd1b9', light: '#84e3d1', dark: '#1e9d87', contrastText: '#00241e' },
        warning: { main: '#fbbf24', light: '#fcd34d', dark: '#d97706', contrastText: '#2a1a00' },
        background: { default: '#0e1421', paper: '#151d2e' },
        text: { primary: '#e6ebf5', secondary: '#aab5c8' },
        divider: 'rgba(143, 176, 236, 0.16)',
      },
    },
  },
  // Transitions and ripples follow the operating system's "reduce motion" setting.
  motion: { reducedMotion: 'system' },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: SYSTEM_FONTS,
    h1: { fontWeight: 700, letterSpacing: '-0.02em' },
    h2: { fontWeight: 700, letterSpacing: '-0.015em' },
    h3: { fontWeight: 700 },
    h4: { fontWeight: 700 },
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        // Numbers line up in tables, stat cards and counters.
        body: { fontVariantNumeric: 'tabular-nums' },
      },
    },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiPaper: { styleOverrides: { outlined: { borderColor: 'var(--mui-palette-divider)' } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600 } } },
  },
});

export type ThemeMode = 'light' | 'dark' | 'system';
export const THEME_MODES: readonly ThemeMode[] = ['light', 'dark', 'system'];

export function isThemeMode(value: unknown): value is ThemeMode {
  return typeof value === 'string' && (THEME_MODES as readonly string[]).includes(value);
}

export interface ThemeModeValue {
  /** What the user chose: light, dark or system. */
  mode: ThemeMode;
  /** What is shown now: 'system' resolved through prefers-color-scheme. */
  resolvedMode: 'light' | 'dark';
  /** Changes the mode at once (the Settings page also saves it on the server). */
  setMode: (mode: ThemeMode) => void;
}

export const ThemeModeContext = createContext<ThemeModeValue | undefined>(undefined);

/** The theme mode and its setter; used by the Settings page and the shell. */
export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode must be used within ThemeModeProvider');
  return value;
}
