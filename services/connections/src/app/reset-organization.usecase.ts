import { InvalidArgumentError } from "@engram/kernel";
import type { Logger } from "@engram/observability";
import type { ConnectionRepository } from "./connection-ports";
import type { ConnectionsUseCases } from "./connections.usecase";
import type { SettingsRepository } from "./ports";

export interface OrganizationResetOutcome {
  deletedConnections: number;
  settingsReset: boolean;
}

/**
 * The connections side of the organisation reset (POST /v3/settings/reset):
 * after the caller confirmed with the organisation's slug (Engram's slug is
 * the tenant id, as PATCH /v3/settings reports it), every connection is
 * deleted the way DELETE /v3/connections/{id} does it (syncs stop, provider
 * webhooks and subscriptions are removed) but without its documents, which
 * the document side of the reset removes with every other document; then
 * the settings go (custom OAuth applications included). The gateway runs the
 * document and memory sides after this one, so a refused confirmation
 * touches nothing. Idempotent: a reset cut short is finished by running it
 * again.
 */
export class ResetOrganizationUseCase {
  constructor(
    private readonly deps: {
      connections: ConnectionsUseCases;
      repo: ConnectionRepository;
      settings: SettingsRepository;
      logger: Logger;
    },
  ) {}

  async execute(tenantId: string, confirmation: string): Promise<OrganizationResetOutcome> {
    if (!tenantId) throw new InvalidArgumentError("call context without tenant");
    if (confirmation !== tenantId)
      throw new InvalidArgumentError(
        "the confirmation does not match the organisation",
        `send {"confirmation": "<orgSlug>"}: the orgSlug PATCH /v3/settings answers with for this key's organisation`,
      );
    let deletedConnections = 0;
    for (const conn of await this.deps.repo.list(tenantId)) {
      await this.deps.connections.delete(tenantId, conn.id, false);
      deletedConnections++;
    }
    const settingsReset = await this.deps.settings.delete(tenantId);
    this.deps.logger.warn({ tenantId, deletedConnections, settingsReset }, "organisation reset: connections and settings removed");
    return { deletedConnections, settingsReset };
  }
}
