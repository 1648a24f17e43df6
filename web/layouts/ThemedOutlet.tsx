import { ThemeModeProvider } from '../components/ThemeModeProvider';
import ServerStateOutlet from '../api/ServerStateOutlet';

/**
 * The MUI theme (and its mode) and server state for every route below it: the pages built with
 * MUI. A layout route loaded as its own chunk, so the landing page carries neither MUI's theme
 * runtime and emotion nor the query library.
 */
export default function ThemedOutlet() {
  return (
    <ThemeModeProvider>
      <ServerStateOutlet />
    </ThemeModeProvider>
  );
}
