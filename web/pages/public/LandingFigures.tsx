import { useEffect, useState } from 'react';
import type { PublicFigures } from '../../../common/public-figures';

/** One figure of the hero: a count and its label, singular or plural by the count. */
export interface Figure {
  value: string;
  label: string;
}

/**
 * The hero's figures from this install's counts (GET /api/public/figures): a figure whose count
 * is 0 is left out rather than shown as "0", and nothing is claimed that was not counted.
 */
export function figuresOf(counts: PublicFigures): Figure[] {
  const figure = (n: number, one: string, many: string): Figure[] =>
    n > 0 ? [{ value: n.toLocaleString('en'), label: n === 1 ? one : many }] : [];
  return [
    ...figure(counts.researchers, 'Researcher', 'Researchers'),
    ...figure(
      counts.completedSessions,
      'Research session completed',
      'Research sessions completed',
    ),
  ];
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/**
 * GET /api/public/figures, read with fetch and checked by hand: the landing page carries
 * neither the query library nor zod (its route stays small). Undefined on any failure.
 */
async function fetchFigures(signal: AbortSignal): Promise<PublicFigures | undefined> {
  try {
    const res = await fetch('/api/public/figures', { signal });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data?: Record<string, unknown> };
    const { researchers, completedSessions } = body.data ?? {};
    if (!isCount(researchers) || !isCount(completedSessions)) return undefined;
    return { researchers, completedSessions };
  } catch {
    return undefined;
  }
}

function useLandingFigures(): PublicFigures | undefined {
  const [figures, setFigures] = useState<PublicFigures>();
  useEffect(() => {
    const abort = new AbortController();
    void fetchFigures(abort.signal).then((f) => {
      if (!abort.signal.aborted) setFigures(f);
    });
    return () => abort.abort();
  }, []);
  return figures;
}

/** The hero's counts of this install; nothing while loading, on failure or when all are 0. */
export function LandingFigures() {
  const counts = useLandingFigures();
  const figures = counts ? figuresOf(counts) : [];
  if (figures.length === 0) return null;
  // Styled by landing.css (imported by the page), like the rest of the landing page.
  return (
    <div className="ea-figures">
      <div className="ea-figures-row" data-testid="landing-figures">
        {figures.map((f) => (
          <div key={f.label} className="ea-figure">
            <p className="ea-figure-value">{f.value}</p>
            <p className="ea-figure-label">{f.label}</p>
          </div>
        ))}
      </div>
      <p className="ea-t ea-t-body2 ea-figures-note">Counted on this server</p>
    </div>
  );
}
