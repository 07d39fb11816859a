import { execFile } from "node:child_process";
import { REPO_ROOT } from "./engram-process";

/**
 * Runs a TypeScript script under `node --import tsx` from the repository root and parses the last
 * line it prints as JSON: for checks that jest cannot run in its own process (worker threads loading
 * TypeScript, native addons that check typed arrays against their own realm).
 */
export function runTsxCheck<T>(script: string, timeoutMs = 120_000): Promise<T> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["--import", "tsx", script], { cwd: REPO_ROOT, timeout: timeoutMs }, (err, out, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()!) as T);
      } catch (parseErr) {
        reject(new Error(`${script} printed no JSON line: ${(parseErr as Error).message}\n${out}\n${stderr}`));
      }
    }),
  );
}
