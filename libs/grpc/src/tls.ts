import fs from "node:fs";
import * as grpc from "@grpc/grpc-js";

/**
 * Mutual TLS between Engram services (docs/deployment.md, "gRPC TLS"): PEM files of this pod's certificate and key
 * and of the CA that issued every service's certificate (cert-manager writes all three into one Secret). Servers
 * present their certificate and require a client certificate from the same CA; clients verify the server's
 * certificate against the CA (its names must include the host of the address they dial) and present their own.
 */
export interface TlsFiles {
  cert: string;
  key: string;
  ca: string;
}

/** The PEM contents, read once at start (a rotated certificate takes effect on the next restart of the pod). */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
  ca: Buffer;
}

export function readTlsFiles(files: TlsFiles): TlsMaterial {
  return { cert: fs.readFileSync(files.cert), key: fs.readFileSync(files.key), ca: fs.readFileSync(files.ca) };
}

// Buffer.from: material that crossed to a worker thread arrives as plain Uint8Arrays, which grpc-js refuses.

export function serverCredentials(m: TlsMaterial): grpc.ServerCredentials {
  return grpc.ServerCredentials.createSsl(Buffer.from(m.ca), [{ cert_chain: Buffer.from(m.cert), private_key: Buffer.from(m.key) }], true);
}

export function channelCredentials(m: TlsMaterial): grpc.ChannelCredentials {
  return grpc.credentials.createSsl(Buffer.from(m.ca), Buffer.from(m.key), Buffer.from(m.cert));
}
