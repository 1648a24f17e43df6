import './FullPageSpinner.css';

/**
 * Shown while a layout's chunk or the first check of a guard loads. Drawn like MUI's
 * CircularProgress but in plain CSS: the router shows it before any MUI code has loaded.
 */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-label={label} className="ea-spinner-page">
      <span className="ea-spinner" aria-hidden>
        <svg viewBox="22 22 44 44">
          <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
        </svg>
      </span>
    </div>
  );
}
