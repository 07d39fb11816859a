import { type Clock, DEFAULT_NAMESPACE, NotFoundError, validateNamespace } from "@engram/kernel";
import { applyContainerTagPatch, type ContainerTagPatch, type ContainerTagView, containerTagView } from "../domain/container-tag";
import type { DeleteDocumentsUseCase } from "./delete-documents.usecase";
import type { ContainerTagRepository } from "./ports";

/**
 * Container tags as the document side knows them: their settings and their
 * documents. The memories' side (counts, forgetting) is the memories
 * service's; the gateway puts the two together, so neither service calls
 * the other.
 */
export class ContainerTagsUseCase {
  constructor(
    private readonly deps: {
      tags: ContainerTagRepository;
      deleteDocuments: DeleteDocumentsUseCase;
      clock: Clock;
    },
  ) {}

  /** Every tag of the tenant that holds documents or has settings, by name. */
  async list(tenantId: string): Promise<ContainerTagView[]> {
    const [settings, stats] = await Promise.all([this.deps.tags.listTags(tenantId), this.deps.tags.namespaceStats(tenantId)]);
    const bySettings = new Map(settings.map((s) => [s.namespace, s]));
    const byStats = new Map(stats.map((s) => [s.namespace, s]));
    return [...new Set([...bySettings.keys(), ...byStats.keys()])].sort().map((ns) => containerTagView(tenantId, ns, bySettings.get(ns), byStats.get(ns))!);
  }

  /** NotFoundError when the tag holds no document and has no settings (it may still hold memories: the caller asks the memories service). */
  async get(tenantId: string, namespace: string): Promise<ContainerTagView> {
    validateNamespace(namespace, "containerTag");
    const [settings, stats] = await Promise.all([this.deps.tags.getTag(tenantId, namespace), this.deps.tags.namespaceStats(tenantId, namespace)]);
    const view = containerTagView(tenantId, namespace, settings, stats[0]);
    if (!view) throw new NotFoundError(`container tag ${namespace} not found`);
    return view;
  }

  /** Sets the tag's settings, creating them (a tag may be configured before its first document). */
  async update(tenantId: string, namespace: string, patch: ContainerTagPatch): Promise<ContainerTagView> {
    const current = await this.deps.tags.getTag(tenantId, namespace);
    const next = applyContainerTagPatch(current, { tenantId, namespace }, patch, this.deps.clock.now().toISOString());
    await this.deps.tags.putTag(next);
    return this.get(tenantId, namespace);
  }

  /**
   * Deletes the tag's documents (each through the outbox: chunks, vectors,
   * files and the memories formed from them follow) and its settings.
   * `existed` is false when there was neither.
   */
  async delete(tenantId: string, namespace: string): Promise<{ deletedDocuments: number; existed: boolean }> {
    validateNamespace(namespace, "containerTag");
    const deleted = await this.deps.deleteDocuments.byNamespaces(tenantId, [namespace]);
    const hadSettings = await this.deps.tags.deleteTag(tenantId, namespace);
    return { deletedDocuments: deleted.count, existed: hadSettings || deleted.count > 0 };
  }

  /**
   * The document side of the organisation reset: every document of the
   * tenant (section 9 of docs/api-decisions.md) and every tag's settings.
   * `deletedExtraSpaces` counts the tags other than the default one that
   * held documents or settings. Idempotent.
   */
  async resetTenant(tenantId: string): Promise<{ deletedDocuments: number; deletedExtraSpaces: number }> {
    const deleted = await this.deps.deleteDocuments.byTenant(tenantId);
    const spaces = new Set(deleted.namespaces);
    for (const t of await this.deps.tags.listTags(tenantId)) {
      await this.deps.tags.deleteTag(tenantId, t.namespace);
      spaces.add(t.namespace);
    }
    spaces.delete(DEFAULT_NAMESPACE);
    return { deletedDocuments: deleted.count, deletedExtraSpaces: spaces.size };
  }
}
