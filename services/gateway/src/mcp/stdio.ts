/**
 * Engram's MCP server over stdio, for desktop clients (Claude Desktop, Cursor,
 * …) that start it as a process: `pnpm mcp`, or
 * `node --import tsx services/gateway/src/mcp/stdio.ts`.
 *
 * Environment: ENGRAM_URL (default http://localhost:8787), ENGRAM_API_KEY
 * (required), ENGRAM_CONTAINER_TAG (optional: fixes the container tag for the
 * session). The tools call that Engram's REST API with the key. stdout carries
 * MCP messages only: everything else goes to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import Supermemory from "supermemory";
import { SCOPE_PATTERN } from "@engram/kernel";
import { createEngramMcpServer } from "./engram-tools";

const DEFAULT_URL = "http://localhost:8787";

const log = (message: string) => process.stderr.write(`engram-mcp: ${message}\n`);

export interface StdioSettings {
  url: string;
  apiKey: string;
  containerTag?: string;
}

/** The settings from the environment, or every problem with it. */
export function stdioSettings(env: NodeJS.ProcessEnv): { settings?: StdioSettings; problems: string[] } {
  const problems: string[] = [];
  const url = env.ENGRAM_URL?.trim() || DEFAULT_URL;
  if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) problems.push(`ENGRAM_URL must be an http(s) URL such as ${DEFAULT_URL} (got "${url}")`);
  const apiKey = env.ENGRAM_API_KEY?.trim();
  if (!apiKey) problems.push("ENGRAM_API_KEY is required: an Engram API key (see `pnpm keys create`)");
  const containerTag = env.ENGRAM_CONTAINER_TAG?.trim() || undefined;
  if (containerTag !== undefined) {
    if (!SCOPE_PATTERN.test(containerTag)) problems.push("ENGRAM_CONTAINER_TAG must be 1-100 characters of letters, digits, '-', '_', '.' and ':'");
  }
  if (problems.length) return { problems };
  return { settings: { url: url.replace(/\/+$/, ""), apiKey: apiKey!, ...(containerTag ? { containerTag } : {}) }, problems };
}

async function main(): Promise<void> {
  const { settings, problems } = stdioSettings(process.env);
  if (!settings) {
    log(`cannot start:\n  - ${problems.join("\n  - ")}`);
    process.exit(1);
  }
  const client = new Supermemory({ apiKey: settings.apiKey, baseURL: settings.url });
  const server = createEngramMcpServer({ client, ...(settings.containerTag ? { containerTag: settings.containerTag } : {}) });
  const transport = new StdioServerTransport();
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  log(`serving ${settings.url}${settings.containerTag ? ` (container tag ${settings.containerTag})` : ""} over stdio`);
  // The client closing stdin ends the session.
  process.stdin.once("end", () => void server.close().finally(() => process.exit(0)));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}
