// Entry of the gateway thread when running from TypeScript sources (under tsx): a plain
// CommonJS file. The thread inherits `--import tsx`, whose require() hook then loads the
// TypeScript worker module (as the extraction pool's threads do).
const { workerData } = require("node:worker_threads");

require(workerData.entry);
