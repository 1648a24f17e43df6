/**
 * The part of @citation-js/core (0.7, shipped without type declarations) this project uses.
 * Items are CSL-JSON (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html).
 */
declare module '@citation-js/core' {
  export interface CiteOptions {
    forceType?: string;
    generateGraph?: boolean;
  }
  export class Cite {
    constructor(data?: unknown, options?: CiteOptions);
    data: Record<string, unknown>[];
    format(format: string, options?: Record<string, unknown>): string;
  }
  export const plugins: {
    input: { list(): string[] };
    output: { list(): string[] };
  };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-csl';
