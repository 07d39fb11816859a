/** @type {import('jest').Config} */
const swc = ["@swc/jest", { jsc: { target: "es2022", parser: { syntax: "typescript" } }, module: { type: "commonjs" } }];
const common = {
  // oauth4webapi and jose ship ES modules only: compiled to CommonJS like the sources (Node 20's jest cannot require ESM).
  transform: { "^.+\\.ts$": swc, "/(oauth4webapi|jose)/.+\\.js$": swc },
  transformIgnorePatterns: ["/node_modules/(?!\\.pnpm/(oauth4webapi|jose)@|(oauth4webapi|jose)/)"],
  testEnvironment: "node",
  moduleFileExtensions: ["ts", "js", "json"],
};

module.exports = {
  // Two cores: each e2e file starts its own stack process.
  maxWorkers: 2,
  // End-to-end tests start whole stacks; unit tests finish far below this.
  testTimeout: 60_000,
  // Production engines for the contract suites (skipped with a printed reason without a container runtime).
  globalSetup: "<rootDir>/scripts/jest-global-setup.cjs",
  globalTeardown: "<rootDir>/scripts/jest-global-teardown.cjs",
  reporters: ["default", "<rootDir>/scripts/jest-summary-reporter.js"],
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/libs/*/test/**/*.test.ts", "<rootDir>/services/*/test/**/*.test.ts", "<rootDir>/apps/*/test/**/*.test.ts"],
    },
    {
      ...common,
      displayName: "e2e",
      testMatch: ["<rootDir>/tests/e2e/test/**/*.test.ts"],
    },
  ],
};
