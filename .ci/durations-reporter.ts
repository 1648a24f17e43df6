import fs from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where a suite's time goes: each test file's duration, its hooks included (starting a server or
 * a browser in beforeAll is part of what a file costs), appended as JSON lines to the file named
 * by TEST_DURATIONS_FILE; at the end the ten longest files are printed. .ci/run sets the file
 * (docs/performance.md, CI, was measured with it).
 */
export default class DurationsReporter implements Reporter {
  private readonly rows: Array<{ project: string; file: string; ms: number; state: string }> = [];

  onTestModuleEnd(module: TestModule): void {
    const row = {
      project: module.project.name,
      file: module.relativeModuleId,
      ms: Math.round(module.diagnostic().duration),
      state: module.state(),
    };
    this.rows.push(row);
    const out = process.env.TEST_DURATIONS_FILE;
    if (out) fs.appendFileSync(out, `${JSON.stringify(row)}\n`);
  }

  onTestRunEnd(): void {
    if (this.rows.length === 0) return;
    const total = this.rows.reduce((sum, r) => sum + r.ms, 0);
    const longest = [...this.rows].sort((a, b) => b.ms - a.ms).slice(0, 10);
    console.log(`\nLongest test files (hooks included; all ${this.rows.length}: ${s(total)}):`);
    for (const r of longest) {
      const share = ((100 * r.ms) / total).toFixed(1).padStart(5);
      console.log(`  ${s(r.ms).padStart(8)} ${share}%  ${r.project} ${r.file}`);
    }
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
