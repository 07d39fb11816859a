import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "libs/grpc/src/gen/**", "**/dist/**", "coverage/**", "bench/results/**", ".data/**", "**/scratch/**", "tests/fixtures/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      "no-console": ["error", { allow: ["warn", "error"] }],
      eqeqeq: ["error", "always"],
    },
  },
  {
    // Command-line tools, scripts, benches and tests talk to the terminal.
    files: ["scripts/**", "bench/**", "**/cli/**", "**/test/**", "tests/**"],
    rules: { "no-console": "off" },
  },
  {
    // CommonJS entry files (worker-thread bootstraps) load modules with require() by design.
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
