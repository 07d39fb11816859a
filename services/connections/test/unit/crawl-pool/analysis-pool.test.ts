import { execFile } from "node:child_process";
import path from "node:path";

/*
 * jest compiles TypeScript itself and worker threads cannot load .ts files
 * here, so the pool runs the way the service runs it: a child process
 * `node --import tsx pool-check.ts`.
 */
const root = path.resolve(__dirname, "../../../../..");

describe("PageAnalysisPool (worker threads under node --import tsx)", () => {
  let out: { same: boolean; title: string; big: { links: number; ms: number; maxLoopGapMs: number }; timeout: string };
  beforeAll(async () => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", path.join(__dirname, "pool-check.ts")], { cwd: root, timeout: 120_000 }, (err, so, se) =>
        err ? reject(new Error(`${err.message}\n${se}`)) : resolve(so),
      ),
    );
    out = JSON.parse(stdout.trim().split("\n").at(-1)!) as typeof out;
  }, 130_000);

  it("analyses a page exactly as the calling thread would", () => {
    expect(out.same).toBe(true);
    expect(out.title.length).toBeGreaterThan(0);
  });

  it("analyses a large page off the calling thread", () => {
    expect(out.big.links).toBe(160_000);
    // The main thread kept ticking while a worker did the work (a tick can still be late on a busy 2-core machine).
    expect(out.big.maxLoopGapMs).toBeLessThan(out.big.ms);
  });

  it("fails a page over its time limit with a reason instead of waiting", () => {
    expect(out.timeout).toMatch(/longer than 5 ms/);
  });
});
