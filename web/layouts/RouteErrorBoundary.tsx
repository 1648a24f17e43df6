import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { RouteErrorView } from './RouteErrorView';

interface BoundaryProps {
  /** Changes on every navigation: moving elsewhere clears the error. */
  resetKey: string;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { error: unknown; failedAt?: string }> {
  override state: { error: unknown; failedAt?: string } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: BoundaryProps,
    state: { error: unknown; failedAt?: string },
  ) {
    if (state.error === undefined) return null;
    // The first render after the error records where it happened; a later location clears it.
    if (state.failedAt === undefined) return { failedAt: props.resetKey };
    return state.failedAt === props.resetKey ? null : { error: undefined, failedAt: undefined };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error === undefined ? (
      this.props.children
    ) : (
      <RouteErrorView error={this.state.error} />
    );
  }
}

/**
 * Catches what a route throws while rendering, including a page chunk that fails to load, and
 * shows the default error view (RouteErrorView) in place of the whole page.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary resetKey={location.key}>{children}</Boundary>;
}
