import { useMemo, type ReactNode } from 'react';
import { ThemeProvider, useColorScheme } from '@mui/material/styles';
import CssBaseline from '@mui/material/CssBaseline';
import { MODE_STORAGE_KEY } from '../layouts/colorScheme';
import { theme, ThemeModeContext, type ThemeMode, type ThemeModeValue } from '../theme';

/**
 * Applies the theme and exposes ThemeModeContext. The mode starts from this browser's last choice
 * (or 'system'); inside the app, useSavedThemeMode then applies the user's saved theme.
 */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider
      theme={theme}
      defaultMode="system"
      modeStorageKey={MODE_STORAGE_KEY}
      disableTransitionOnChange
    >
      <CssBaseline enableColorScheme />
      <ModeContext>{children}</ModeContext>
    </ThemeProvider>
  );
}

function ModeContext({ children }: { children: ReactNode }) {
  const { mode, systemMode, setMode } = useColorScheme();
  const value = useMemo<ThemeModeValue>(() => {
    const chosen: ThemeMode = mode ?? 'system';
    const resolved = chosen === 'system' ? (systemMode ?? 'light') : chosen;
    return { mode: chosen, resolvedMode: resolved, setMode: (m: ThemeMode) => setMode(m) };
  }, [mode, systemMode, setMode]);
  return <ThemeModeContext.Provider value={value}>{children}</ThemeModeContext.Provider>;
}
