import { gateCitations } from '../../sources/citation-gate';
import type { PhaseProvenance } from './provenance';

/**
 * `ctx.citations`: every text of a phase that a researcher will see (a log line, a panel, a
 * report, a saved document) passes the one citation gate (server/sources/citation-gate.ts)
 * against the works recorded in this session with `ctx.provenance.work`.
 */
export interface CitationGate {
  /**
   * The text with every reference to a work not recorded in this session removed; writes one
   * log line per removal, naming `where` the text was going (e.g. 'Theory tab').
   */
  gate(text: string, options: { where: string }): Promise<string>;
}

/** The log line written for each reference the gate removes. */
export function removalLogLine(citation: string, where: string): string {
  return `Removed a reference to a work not retrieved in this session: ${citation} (${where})`;
}

export function createCitationGate(
  provenance: Pick<PhaseProvenance, 'works'>,
  log: { warn(message: string): Promise<void> },
): CitationGate {
  return {
    async gate(text, { where }) {
      if (!text.trim()) return text;
      const gated = gateCitations(text, provenance.works());
      for (const removal of gated.removed) {
        await log.warn(removalLogLine(removal.citation, where));
      }
      return gated.removed.length ? gated.text : text;
    },
  };
}
