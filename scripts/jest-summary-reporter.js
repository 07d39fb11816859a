// Prints one plain closing line CI can read: "tests: N passed, N failed, N skipped".
class SummaryReporter {
  onRunComplete(_contexts, r) {
    process.stdout.write(
      `\ntests: ${r.numPassedTests} passed, ${r.numFailedTests + r.numRuntimeErrorTestSuites} failed, ${r.numPendingTests + r.numTodoTests} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
