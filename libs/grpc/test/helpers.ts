import type * as grpc from "@grpc/grpc-js";
import { rootLogger } from "@engram/observability";
import { createClient } from "../src/client";
import { GrpcServer } from "../src/server";
import type { ServiceImplementation } from "../src/services";

/** A loopback gRPC server serving one service, and a raw client of that service on it. */
export interface Loopback {
  client: grpc.Client;
  /** Closes the client and shuts the server down. */
  close(): Promise<void>;
}

/** Serves `impl` (from `implement(Service, handlers)`) on a free loopback port and connects a client to it. */
export async function serveOnLoopback(impl: ServiceImplementation): Promise<Loopback> {
  const server = new GrpcServer(rootLogger({ level: "silent" }));
  server.add(impl);
  const port = await server.bind("127.0.0.1:0");
  server.setServing(true);
  const client = createClient(impl.service.fullName, `127.0.0.1:${port}`);
  return {
    client,
    async close() {
      client.close();
      await server.shutdown(1000);
    },
  };
}
