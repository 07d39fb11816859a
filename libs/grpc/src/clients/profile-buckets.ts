import * as grpc from "@grpc/grpc-js";
import { isServiceError } from "../errors";
import { connect, SettingsService } from "../services";

export interface ProfileBucketDef {
  key: string;
  description: string;
}

/**
 * The effective profile buckets of a tenant's namespace, read from the
 * connections service's SettingsService (memories classifies into them,
 * recall builds profiles from them). Cached briefly per tenant. A settings
 * service that does not offer the operation means "no buckets". Container
 * tags do not carry buckets of their own yet, so the organisation's list is
 * the effective one for every namespace.
 */
export class ProfileBucketsClient {
  private readonly client;
  private readonly cache = new Map<string, { at: number; value: Promise<ProfileBucketDef[]> }>();

  constructor(
    address: string,
    private readonly ttlMs = 5_000,
  ) {
    this.client = connect(SettingsService, address, { deadlineMs: 10_000 });
  }

  buckets(tenantId: string, _namespace?: string): Promise<ProfileBucketDef[]> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = this.client.GetSettings({ context: { tenantId } }).then(
      (r) => (r.settings?.profileBuckets ?? []).map((b) => ({ key: b.key, description: b.description })),
      (err) => {
        this.cache.delete(tenantId);
        if (isServiceError(err) && err.code === grpc.status.UNIMPLEMENTED) return [];
        throw err;
      },
    );
    this.cache.set(tenantId, { at: Date.now(), value });
    return value;
  }

  close(): void {
    this.client.close();
  }
}
