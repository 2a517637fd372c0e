import type { Reporter, RunnerTask, RunnerTestFile } from 'vitest';

// Prints one plain closing line, "tests: N passed, N failed[, N skipped]", that CI reads.
function count(tasks: RunnerTask[], totals: { passed: number; failed: number; skipped: number }) {
  for (const task of tasks) {
    if (task.type === 'suite') count(task.tasks, totals);
    else if (task.result?.state === 'pass') totals.passed += 1;
    else if (task.result?.state === 'fail') totals.failed += 1;
    else totals.skipped += 1;
  }
  return totals;
}

export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []) {
    const totals = count(files, { passed: 0, failed: 0, skipped: 0 });
    // A file that failed to load counts as a failure even though none of its tests ran.
    totals.failed += files.filter((file) => file.result?.state === 'fail' && file.tasks.length === 0).length;
    totals.failed += errors.length;
    const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
    console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
  }
}
