import type { GrpcServerOptions } from "./server";
import type { ClientSecurity } from "./services";
import { channelCredentials, serverCredentials, type TlsMaterial } from "./tls";
import { isServiceIdentity, type ServiceIdentity, signerFor, type TrustMaterial, verifierFor } from "./trust";

/**
 * The security of a process's gRPC (docs/api-decisions.md §19): the trust keys (its services' private keys, every
 * service's public key) and, when configured, the TLS certificate material. Plain data, so the all-in-one process
 * hands it to the gateway's thread.
 */
export interface ProcessSecurity {
  trust: TrustMaterial;
  tls?: TlsMaterial;
}

function identity(name: string): ServiceIdentity {
  if (!isServiceIdentity(name)) throw new Error(`"${name}" is not an Engram service: it has no trust identity`);
  return name;
}

/** How the service `name` of this process signs its calls (and dials over TLS). */
export function clientSecurity(security: ProcessSecurity, name: string): ClientSecurity {
  return { signer: signerFor(security.trust, identity(name)), ...(security.tls ? { credentials: channelCredentials(security.tls) } : {}) };
}

/** What the gRPC server of the service `name` checks (and its TLS). */
export function serverSecurity(security: ProcessSecurity, name: string): GrpcServerOptions {
  return { trust: { verifier: verifierFor(security.trust, identity(name)) }, ...(security.tls ? { credentials: serverCredentials(security.tls) } : {}) };
}
