import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names (what to look at when the suite grows past its budget). */
const SLOWEST = 12;

/** Ends the run with the slowest files and the plain `N passed, N failed` line CI reads. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    const slowest = testModules
      .map((mod) => ({ file: mod.relativeModuleId, ms: mod.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST);
    if (slowest.length > 1) {
      process.stdout.write('\nslowest files:\n');
      for (const { file, ms } of slowest) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
