import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useColorScheme } from '@mui/material/styles';
import { fetchSavedThemeMode } from '../api/theme-preference';
import { useSessionUser } from '../api/session';

/**
 * Applies the signed-in user's saved theme (Settings > Profile) once per user, so a later local
 * change is not overridden by the cached answer. Used by the app shell: the public pages keep the
 * browser's own last choice.
 */
export function useSavedThemeMode(): void {
  const { setMode } = useColorScheme();
  const user = useSessionUser();
  const who = user?.id ?? user?.email;
  const saved = useQuery({
    queryKey: ['theme-preference', who],
    queryFn: ({ signal }) => fetchSavedThemeMode(signal),
    enabled: who !== undefined,
    staleTime: Infinity,
    retry: false,
  });

  const appliedFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!who || !saved.data || appliedFor.current === who) return;
    appliedFor.current = who;
    setMode(saved.data);
  }, [saved.data, who, setMode]);
}
