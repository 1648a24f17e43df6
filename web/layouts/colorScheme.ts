/**
 * The light/dark class on <html> for pages that render without MUI's theme provider (the landing
 * page and the public frame). It reads what the provider stores and resolves 'system' the same way
 * (web/components/ThemeModeProvider.tsx), so the class is right before any MUI code loads; once a
 * page mounts the provider, the provider sets the same class and keeps it.
 */

/** Where MUI keeps the chosen mode ('light' | 'dark' | 'system'), so a reload keeps it. */
export const MODE_STORAGE_KEY = 'econagents-theme-mode';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function storedMode(): string | null {
  try {
    return window.localStorage.getItem(MODE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** 'light' or 'dark': the stored choice, or the system's when none (or 'system') is stored. */
export function resolvedColorScheme(mode: string | null, systemIsDark: boolean): 'light' | 'dark' {
  if (mode === 'light' || mode === 'dark') return mode;
  return systemIsDark ? 'dark' : 'light';
}

function apply(root: HTMLElement, systemIsDark: boolean) {
  const scheme = resolvedColorScheme(storedMode(), systemIsDark);
  root.classList.remove(scheme === 'dark' ? 'light' : 'dark');
  root.classList.add(scheme);
}

/** Sets the class now and again when the system's scheme or another tab's choice changes. */
export function followColorScheme(root: HTMLElement = document.documentElement): void {
  const media = window.matchMedia?.(DARK_QUERY);
  const update = () => apply(root, media?.matches ?? false);
  update();
  media?.addEventListener('change', update);
  window.addEventListener('storage', (e) => {
    if (e.key === MODE_STORAGE_KEY || e.key === null) update();
  });
}
