import fs from "node:fs";
import path from "node:path";
import { type RequestHandler, Router } from "express";
import { HttpProblem } from "./errors";

/**
 * The console page's CSP: its script and styles from this origin only, API
 * calls to this origin only, no inline script, no framing. (The JSON API
 * keeps `default-src 'none'`.)
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const BUILD_HINT = "the console is not built: run `pnpm --filter @engram/console build` (`npm start` and `npm test` build it when missing or stale)";

/**
 * Where the built console is: `ENGRAM_CONSOLE_DIR` when set, else a `console`
 * folder beside this module (a bundled deployment), else `apps/console/dist`
 * of the first folder above this module that has it (the repository).
 */
export function consoleDistDir(start = __dirname, env: NodeJS.ProcessEnv = process.env): string {
  if (env.ENGRAM_CONSOLE_DIR) return path.resolve(env.ENGRAM_CONSOLE_DIR);
  const beside = path.join(start, "console");
  if (fs.existsSync(path.join(beside, "index.html"))) return beside;
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "apps", "console", "package.json"))) return path.join(dir, "apps", "console", "dist");
    if (path.dirname(dir) === dir) return path.join(start, "console");
  }
}

/**
 * The web console (apps/console) at `/console`: hashed assets under
 * `/console/assets/` (cached for a year), and the page itself for `/console`
 * and every other path under it (the console's own routes). Open, like
 * /docs: the page holds no data, its API calls carry the key the user signs
 * in with. When the console is not built, 503 with the API error body
 * saying how to build it.
 */
export function consoleRoutes(dir = consoleDistDir()): Router {
  const r = Router();
  const serve: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (!fs.existsSync(path.join(dir, "index.html"))) throw new HttpProblem(503, "Console unavailable", BUILD_HINT);
    res.setHeader("content-security-policy", CONSOLE_CSP);
    if (req.path.startsWith("/assets/")) {
      // Content-hashed names: a changed file has a new name.
      res.setHeader("cache-control", "public, max-age=31536000, immutable");
      return res.sendFile(req.path.slice(1), { root: dir, cacheControl: false, dotfiles: "deny" }, (err) => {
        if (err) next(new HttpProblem(404, "Not found", `no console asset ${req.path}`));
      });
    }
    // The page: no-store (set for every response), so a rebuilt console is picked up at once.
    res.sendFile("index.html", { root: dir, cacheControl: false }, (err) => {
      if (err) next(new HttpProblem(503, "Console unavailable", BUILD_HINT));
    });
  };
  r.use("/console", serve);
  return r;
}
