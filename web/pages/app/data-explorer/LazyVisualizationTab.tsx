import { lazy, Suspense } from 'react';
import { LoadingSkeleton } from '../../../components';

// The chart library loads with this tab only, so the catalog stays within the route budget.
const VisualizationTab = lazy(() =>
  import('./VisualizationTab').then((m) => ({ default: m.VisualizationTab })),
);

export function LazyVisualizationTab() {
  return (
    <Suspense
      fallback={<LoadingSkeleton variant="cards" count={1} label="Loading the chart tools" />}
    >
      <VisualizationTab />
    </Suspense>
  );
}
