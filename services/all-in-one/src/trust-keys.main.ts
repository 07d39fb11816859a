/**
 * `pnpm trust-keys`: a fresh set of service-to-service trust keys (docs/deployment.md, "Service-to-service trust"),
 * printed as environment lines: ENGRAM_TRUST_PUBLIC_KEYS (every service gets it) and one <SERVICE>_TRUST_KEY per
 * service (only that service gets it). Append them to a compose `.env` or a Kubernetes Secret's env file.
 */
import { formatPublicKeys, generateTrustKeyPair, SERVICE_IDENTITIES, type ServiceIdentity } from "@engram/grpc";
import { trustKeyVariable } from "./security";

export function trustKeyLines(): string[] {
  const publicKeys: Partial<Record<ServiceIdentity, string>> = {};
  const lines: string[] = [];
  for (const s of SERVICE_IDENTITIES) {
    const pair = generateTrustKeyPair();
    publicKeys[s] = pair.publicKey;
    lines.push(`${trustKeyVariable(s)}=${pair.privateKey}`);
  }
  return [`ENGRAM_TRUST_PUBLIC_KEYS=${formatPublicKeys(publicKeys)}`, ...lines];
}

if (require.main === module) process.stdout.write(trustKeyLines().join("\n") + "\n");
