import type { Connection } from "../../src/domain/connection";
import { ConnectorError } from "../../src/domain/errors";
import { createCrawlFetch } from "../../src/adapters/connectors/web-crawler";
import { WebCrawlerConnector } from "../../src/adapters/connectors/web-crawler-connector";

/** The connector's run outcome when the site cannot be crawled at all. */
describe("web-crawler connector", () => {
  it("fails the run (provider_unavailable) when robots.txt is unreachable, instead of succeeding with nothing", async () => {
    // Loopback without the private-address allowance: refused by the address guard before any request.
    const connector = new WebCrawlerConnector(createCrawlFetch({ allowPrivate: false }), { defaultDelayMs: 0 });
    const conn = { id: "n_test", tenantId: "t", provider: "web-crawler", metadata: { startUrl: "http://127.0.0.1:9/" } } as unknown as Connection;
    const seen: unknown[] = [];
    const run = async () => {
      for await (const change of connector.changes(conn, new Map(), new AbortController().signal)) seen.push(change);
    };
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err).toMatchObject({ code: "provider_unavailable", retryable: true });
    expect((err as Error).message).toMatch(/robots\.txt is unreachable \(.*private/);
    expect(seen).toEqual([]);
  });
});
