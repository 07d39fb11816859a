import * as grpc from "@grpc/grpc-js";
import { isServiceError } from "../errors";
import { connect, ContainerTagService } from "../services";
import { OrgSettingsClient, type ProfileBucketDef } from "./org-settings";

/**
 * The profile buckets that apply in a container tag: the organisation's
 * (SettingsService, PATCH /v3/settings) and, added on top, the tag's own
 * (ingestion's ContainerTagService, PATCH /v3/container-tags/{tag}). A tag
 * bucket never overrides or removes an organisation bucket: on the same key
 * the organisation's wins. Memories classify with them and recall builds
 * profiles from them; each side is cached briefly per tenant and tag.
 */
export class EffectiveBuckets {
  private readonly org: OrgSettingsClient;
  private readonly tags;
  private readonly cache = new Map<string, { at: number; value: Promise<ProfileBucketDef[]> }>();

  constructor(
    addresses: { connections: string; ingestion: string },
    private readonly ttlMs = 5_000,
  ) {
    this.org = new OrgSettingsClient(addresses.connections, ttlMs);
    this.tags = connect(ContainerTagService, addresses.ingestion, { deadlineMs: 10_000 });
  }

  async buckets(tenantId: string, namespace: string): Promise<ProfileBucketDef[]> {
    const [org, own] = await Promise.all([this.org.buckets(tenantId), this.tagBuckets(tenantId, namespace)]);
    const keys = new Set(org.map((b) => b.key));
    return [...org, ...own.filter((b) => !keys.has(b.key))];
  }

  private tagBuckets(tenantId: string, namespace: string): Promise<ProfileBucketDef[]> {
    const key = `${tenantId}\u0000${namespace}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = this.tags.GetContainerTag({ context: { tenantId }, namespace }).then(
      (r) => (r.containerTag?.profileBuckets ?? []).map((b) => ({ key: b.key, description: b.description })),
      (err: unknown): ProfileBucketDef[] => {
        this.cache.delete(key);
        // A tag with no documents and no settings, or an ingestion without container tags: no buckets of its own.
        if (isServiceError(err) && (err.code === grpc.status.NOT_FOUND || err.code === grpc.status.UNIMPLEMENTED)) return [];
        throw err;
      },
    );
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }

  close(): void {
    this.org.close();
    this.tags.close();
  }
}
