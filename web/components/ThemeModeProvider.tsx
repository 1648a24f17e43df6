import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ThemeProvider, useColorScheme } from '@mui/material/styles';
import CssBaseline from '@mui/material/CssBaseline';
import { fetchSavedThemeMode } from '../api/theme-preference';
import { useSessionUser } from '../api/auth';
import { theme, ThemeModeContext, type ThemeMode, type ThemeModeValue } from '../theme';

/** Where MUI keeps the chosen mode, so a reload keeps it before the server answers. */
const MODE_STORAGE_KEY = 'econagents-theme-mode';

/**
 * Applies the theme and exposes ThemeModeContext. The mode starts from this browser's last choice
 * (or 'system'); once a signed-in user's saved settings load, their saved theme wins.
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
      <ModeBridge>{children}</ModeBridge>
    </ThemeProvider>
  );
}

function ModeBridge({ children }: { children: ReactNode }) {
  const { mode, systemMode, setMode } = useColorScheme();
  const user = useSessionUser();
  const saved = useQuery({
    queryKey: ['theme-preference', user?.id ?? user?.email],
    queryFn: ({ signal }) => fetchSavedThemeMode(signal),
    enabled: user !== undefined,
    staleTime: Infinity,
    retry: false,
  });

  // Apply the saved mode once per user, so a later local change is not overridden by the cache.
  const appliedFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    const who = user?.id ?? user?.email;
    if (!who || !saved.data || appliedFor.current === who) return;
    appliedFor.current = who;
    setMode(saved.data);
  }, [saved.data, user?.id, user?.email, setMode]);

  const value = useMemo<ThemeModeValue>(() => {
    const chosen: ThemeMode = mode ?? 'system';
    const resolved = chosen === 'system' ? (systemMode ?? 'light') : chosen;
    return { mode: chosen, resolvedMode: resolved, setMode: (m: ThemeMode) => setMode(m) };
  }, [mode, systemMode, setMode]);

  return <ThemeModeContext.Provider value={value}>{children}</ThemeModeContext.Provider>;
}
