import type { PhaseAppContext, PhaseEngines, PhaseSources } from './team';

/**
 * Where source connectors and engines join the phase context. A module registers a factory at
 * import time (e.g. server/sources/index.ts):
 *   registerPhaseServices((app) => ({ sources: { openalex: createOpenAlex(app.config) } }));
 * and declares its members on PhaseSources / PhaseEngines (see team.ts).
 */
export type PhaseServicesFactory = (app: PhaseAppContext) => {
  sources?: Partial<PhaseSources>;
  engines?: Partial<PhaseEngines>;
};

const factories: PhaseServicesFactory[] = [];

export function registerPhaseServices(factory: PhaseServicesFactory): void {
  factories.push(factory);
}

/** Builds the sources and engines every phase of this process gets. */
export function buildPhaseServices(app: PhaseAppContext): {
  sources: PhaseSources;
  engines: PhaseEngines;
} {
  const sources: Record<string, unknown> = {};
  const engines: Record<string, unknown> = {};
  for (const factory of factories) {
    const made = factory(app);
    Object.assign(sources, made.sources);
    Object.assign(engines, made.engines);
  }
  return { sources: sources as PhaseSources, engines: engines as PhaseEngines };
}
