// fmin ships without type declarations; only what the model engine uses is declared.
declare module 'fmin' {
  export interface NelderMeadOptions {
    maxIterations?: number;
    nonZeroDelta?: number;
    zeroDelta?: number;
    minErrorDelta?: number;
    minTolerance?: number;
  }
  export function nelderMead(
    f: (x: number[]) => number,
    x0: number[],
    options?: NelderMeadOptions,
  ): { x: number[]; fx: number };
}
