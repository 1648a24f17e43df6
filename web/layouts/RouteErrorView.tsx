import './public.css';
import './RouteErrorView.css';

/**
 * The router's default error view: 'Unexpected Application Error!'. Plain elements over the
 * theme's CSS variables: it shows above every route, also where no MUI code has loaded (or where
 * loading a chunk is what failed).
 */
export function RouteErrorView({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="ea-error-view">
      <h1 className="ea-t ea-t-h4">Unexpected Application Error!</h1>
      <div role="alert" className="ea-error-alert">
        <svg focusable="false" aria-hidden="true" viewBox="0 0 24 24">
          <path d="M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8z" />
        </svg>
        <div>{detail}</div>
      </div>
      <p className="ea-t ea-t-body1">
        Reload the page to try again. If this keeps happening, go back to the start page.
      </p>
      <div className="ea-error-actions">
        <button
          type="button"
          className="ea-btn ea-btn--contained"
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
        {/* A plain link: the router itself may be what failed. */}
        <a href="/" className="ea-btn">
          Go to the start page
        </a>
      </div>
    </main>
  );
}
