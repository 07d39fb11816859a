import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "libs/grpc/src/gen/**",
      "apps/console/src/api-types.gen.ts",
      "**/dist/**",
      "coverage/**",
      "bench/results/**",
      ".data/**",
      "**/scratch/**",
      "tests/fixtures/**",
    ],
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
    // The typed gRPC boundary (libs/grpc/src/services.ts): services call each other through connect(Service, address)
    // and serve through implement(Service, handlers), never by method-name strings.
    files: ["services/**", "bench/**", "tests/**", "libs/**"],
    ignores: ["libs/grpc/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@engram/grpc",
              importNames: ["createClient", "unaryCall", "serverStreamCall", "serverStream", "clientStreamCall"],
              message: "call services through connect(Service, address): typed methods, no RPC names as strings",
            },
          ],
        },
      ],
    },
  },
  {
    // `as never` silences the compiler at a boundary (proto enums, messages): map the value instead (libs/grpc/src/enums.ts).
    files: ["services/*/src/**", "libs/*/src/**"],
    rules: {
      "no-restricted-syntax": ["error", { selector: "TSAsExpression > TSNeverKeyword", message: "no `as never`: map or type the value" }],
    },
  },
  {
    // The web console runs in the browser (apps/console: Vite + React).
    files: ["apps/console/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // CommonJS entry files (worker-thread bootstraps) load modules with require() by design.
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
