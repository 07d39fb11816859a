import * as grpc from "@grpc/grpc-js";
import { isServiceError } from "../errors";
import { type ClientSecurity, connect, ContainerTagService } from "../services";
import { OrgSettingsClient, type ProfileBucketDef } from "./org-settings";

/**
 * The profile buckets that apply in a container tag: the organisation's
 * (SettingsService, PATCH /v3/settings) and, added on top, the tag's own
 * (ingestion's ContainerTagService, PATCH /v3/container-tags/{tag}). A tag
 * bucket never overrides or removes an organisation bucket: on the same key
 * the organisation's wins. Memories classify with them and recall builds
 * profiles from them; each side is cached briefly per tenant and tag. The
 * same read of the tag gives memory formation its entity context and path
 * allowlist (formationContext).
 */
export class EffectiveBuckets {
  private readonly org: OrgSettingsClient;
  private readonly tags;
  private readonly cache = new Map<string, { at: number; value: Promise<TagSettings> }>();

  constructor(
    addresses: { connections: string; ingestion: string; security?: ClientSecurity },
    private readonly ttlMs = 5_000,
  ) {
    this.org = new OrgSettingsClient(addresses.connections, ttlMs, addresses.security);
    this.tags = connect(ContainerTagService, addresses.ingestion, { deadlineMs: 10_000, security: addresses.security });
  }

  async buckets(tenantId: string, namespace: string): Promise<ProfileBucketDef[]> {
    const [org, tag] = await Promise.all([this.org.buckets(tenantId), this.tagSettings(tenantId, namespace)]);
    const keys = new Set(org.map((b) => b.key));
    return [...org, ...tag.profileBuckets.filter((b) => !keys.has(b.key))];
  }

  /** What the tag's settings say about forming memories: its entity context and its memory path allowlist (unset: absent). */
  async formationContext(tenantId: string, namespace: string): Promise<FormationContext> {
    const { entityContext, memoryFilesystemPaths } = await this.tagSettings(tenantId, namespace);
    return { ...(entityContext ? { entityContext } : {}), ...(memoryFilesystemPaths ? { memoryFilesystemPaths } : {}) };
  }

  private tagSettings(tenantId: string, namespace: string): Promise<TagSettings> {
    const key = `${tenantId}\u0000${namespace}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = this.tags.GetContainerTag({ context: { tenantId }, namespace }).then(
      (r): TagSettings => {
        const t = r.containerTag;
        return {
          profileBuckets: (t?.profileBuckets ?? []).map((b) => ({ key: b.key, description: b.description })),
          ...(t?.entityContext ? { entityContext: t.entityContext } : {}),
          ...(t?.memoryFilesystemPaths ? { memoryFilesystemPaths: [...t.memoryFilesystemPaths.paths] } : {}),
        };
      },
      (err: unknown): TagSettings => {
        this.cache.delete(key);
        // A tag with no documents and no settings, or an ingestion without container tags: no settings of its own.
        if (isServiceError(err) && (err.code === grpc.status.NOT_FOUND || err.code === grpc.status.UNIMPLEMENTED)) return { profileBuckets: [] };
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

/** A container tag's settings that memory formation applies. */
export interface FormationContext {
  /** Context about the tag's entity, given to extraction beside each document's own. */
  entityContext?: string;
  /** Only documents at one of these paths form memories (exact, or a prefix ending in "/"); absent: every document. */
  memoryFilesystemPaths?: string[];
}

interface TagSettings extends FormationContext {
  profileBuckets: ProfileBucketDef[];
}
