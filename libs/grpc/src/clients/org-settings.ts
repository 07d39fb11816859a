import * as grpc from "@grpc/grpc-js";
import { isServiceError } from "../errors";
import { type ClientSecurity, connect, SettingsService } from "../services";

export interface ProfileBucketDef {
  key: string;
  description: string;
}

/** The organisation settings the other services act on. */
export interface OrgSettingsView {
  profileBuckets: ProfileBucketDef[];
  /** The tenant's chunk size (PATCH /v3/settings chunkSize), as stored; undefined when unset. */
  chunkSize?: number;
}

/**
 * A tenant's organisation settings, read from the connections service's
 * SettingsService and cached briefly per tenant: memories classifies into
 * the profile buckets and recall builds profiles from them; the
 * pipeline-worker chunks new documents with the chunk size. A settings
 * service that does not offer the operation means "nothing set". The
 * buckets that apply in a container tag add the tag's own (EffectiveBuckets).
 */
export class OrgSettingsClient {
  private readonly client;
  private readonly cache = new Map<string, { at: number; value: Promise<OrgSettingsView> }>();

  constructor(
    address: string,
    private readonly ttlMs = 5_000,
    security?: ClientSecurity,
  ) {
    this.client = connect(SettingsService, address, { deadlineMs: 10_000, security });
  }

  settings(tenantId: string): Promise<OrgSettingsView> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = this.client.GetSettings({ context: { tenantId } }).then(
      (r): OrgSettingsView => ({
        profileBuckets: (r.settings?.profileBuckets ?? []).map((b) => ({ key: b.key, description: b.description })),
        ...(typeof r.settings?.chunkSize === "number" ? { chunkSize: r.settings.chunkSize } : {}),
      }),
      (err: unknown): OrgSettingsView => {
        this.cache.delete(tenantId);
        if (isServiceError(err) && err.code === grpc.status.UNIMPLEMENTED) return { profileBuckets: [] };
        throw err;
      },
    );
    this.cache.set(tenantId, { at: Date.now(), value });
    return value;
  }

  async buckets(tenantId: string, _namespace?: string): Promise<ProfileBucketDef[]> {
    return (await this.settings(tenantId)).profileBuckets;
  }

  close(): void {
    this.client.close();
  }
}
