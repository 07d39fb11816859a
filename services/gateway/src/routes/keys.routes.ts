import { Router } from "express";
import { z } from "zod";
import type { ApiKeyRecord } from "../auth/api-key";
import type { KeyService, Principal } from "../auth/keys.service";
import { exceedsRights, type KeyRights, rightsOf, SCOPES } from "../auth/scopes";
import { scope } from "./schemas";
import { HttpProblem } from "../http/errors";

/** At most this many active keys per tenant through the API (the keys CLI, an operator's tool, has no limit). */
export const MAX_ACTIVE_KEYS_PER_TENANT = 100;

/** POST /v3/keys. */
export const createKeyBody = z
  .object(
    {
      name: z
        .string({ message: "name: required, a string" })
        .trim()
        .min(1, "name: must not be empty")
        .max(100, "name: at most 100 characters")
        .meta({ description: "What the key is for, shown in listings", example: "ci" }),
      scopes: z
        .array(z.enum(SCOPES, { message: "scopes[]: one of read, write, admin" }))
        .min(1, "scopes: at least one scope")
        .max(3)
        .optional()
        .meta({
          description:
            "What the key may do: `read` (search, profiles, reads and lists), `write` (adding and changing content), `admin` (keys, settings changes, connections, organisation reset). Default: the calling key's own scopes. Never more than the calling key's.",
          example: ["read"],
        }),
      containerTags: z
        .array(scope("containerTags[]"))
        .min(1, "containerTags: at least one container tag (omit it for every tag)")
        .max(100)
        .optional()
        .meta({
          description:
            "The container tags the key is limited to. Default: the calling key's own limit (none: every tag). A key limited to tags only creates keys limited to some of them.",
          example: ["user_123"],
        }),
    },
    { message: "the body must be a JSON object with name" },
  )
  .strict();

/** DELETE /v3/keys/{id}: a key id (`k_` and base62). */
export const keyIdParam = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "id: a key id, like k_…");

/** A key as listed: never its secret nor its hash. */
export function presentKey(r: ApiKeyRecord, callerKeyId: string): Record<string, unknown> {
  const rights = rightsOf(r);
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.createdAt,
    revokedAt: r.revokedAt ?? null,
    current: r.id === callerKeyId,
    scopes: [...rights.scopes],
    containerTags: rights.containerTags ? [...rights.containerTags] : null,
  };
}

function principalOf(req: { principal?: Principal }): Principal {
  if (!req.principal) throw new Error("route reached without authentication");
  return req.principal;
}

/**
 * API keys of the caller's tenant (an Engram extension, docs/api-decisions.md section 8): list, create, revoke.
 * A key manages its own tenant's keys only; another tenant's key id is answered like an unknown one (404).
 */
export function keyRoutes(keys: KeyService): Router {
  const r = Router();

  r.get("/v3/keys", async (req, res) => {
    const { tenantId, keyId, rights: own } = principalOf(req);
    // A key limited to container tags sees only the keys within its own rights (not the organisation's other keys).
    const visible = (await keys.list(tenantId)).filter((k) => !own.containerTags || k.id === keyId || !exceedsRights(own, rightsOf(k)));
    res.json({ keys: visible.map((k) => presentKey(k, keyId)) });
  });

  r.post("/v3/keys", async (req, res) => {
    const { tenantId, keyId, rights: own } = principalOf(req);
    const body = createKeyBody.parse(req.body);
    // The new key's rights default to the caller's own and never exceed them.
    const scopes = body.scopes ? SCOPES.filter((s) => body.scopes!.includes(s)) : [...own.scopes];
    const containerTags = body.containerTags ? [...new Set(body.containerTags)] : own.containerTags ? [...own.containerTags] : undefined;
    const rights: KeyRights = containerTags ? { scopes, containerTags } : { scopes };
    const excess = exceedsRights(own, rights);
    if (excess) throw new HttpProblem(403, "Forbidden", `a key cannot create a key with more rights than its own: ${excess}`);
    const active = (await keys.list(tenantId)).filter((k) => !k.revokedAt).length;
    if (active >= MAX_ACTIVE_KEYS_PER_TENANT)
      throw new HttpProblem(409, "Too many keys", `a tenant has at most ${MAX_ACTIVE_KEYS_PER_TENANT} active keys: revoke one first`);
    const { key, record } = await keys.create(tenantId, body.name, rights);
    res.status(201).json({ ...presentKey(record, keyId), key });
  });

  r.delete("/v3/keys/:id", async (req, res) => {
    const { tenantId, keyId, rights: own } = principalOf(req);
    const id = keyIdParam.parse(req.params.id);
    if (id === keyId)
      throw new HttpProblem(
        409,
        "Cannot revoke the calling key",
        "a key does not revoke itself: revoke it with another key of the tenant, or with `pnpm keys revoke`",
      );
    const found = (await keys.list(tenantId)).find((k) => k.id === id);
    if (!found) throw new HttpProblem(404, "Key not found", `no key ${id}`);
    // A key revokes only keys with no more rights than its own (a tag-limited admin key cannot revoke the organisation's full key).
    const excess = exceedsRights(own, rightsOf(found));
    if (excess)
      throw new HttpProblem(403, "Forbidden", `a key cannot revoke a key with more rights than its own: ${excess.replace("the new key", "that key")}`);
    // Revoking a revoked key changes nothing and answers the first revocation's time.
    if (!found.revokedAt) await keys.revoke(id, tenantId);
    const after = (await keys.list(tenantId)).find((k) => k.id === id) ?? found;
    res.json(presentKey(after, keyId));
  });

  return r;
}
