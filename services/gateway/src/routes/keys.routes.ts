import { Router } from "express";
import { z } from "zod";
import type { ApiKeyRecord } from "../auth/api-key";
import type { KeyService } from "../auth/keys.service";
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
    },
    { message: "the body must be a JSON object with name" },
  )
  .strict();

/** DELETE /v3/keys/{id}: a key id (`k_` and base62). */
export const keyIdParam = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "id: a key id, like k_…");

/** A key as listed: never its secret nor its hash. */
export function presentKey(r: ApiKeyRecord, callerKeyId: string): Record<string, unknown> {
  return { id: r.id, name: r.name, prefix: r.prefix, createdAt: r.createdAt, revokedAt: r.revokedAt ?? null, current: r.id === callerKeyId };
}

function principalOf(req: { principal?: { tenantId: string; keyId: string } }): { tenantId: string; keyId: string } {
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
    const { tenantId, keyId } = principalOf(req);
    res.json({ keys: (await keys.list(tenantId)).map((k) => presentKey(k, keyId)) });
  });

  r.post("/v3/keys", async (req, res) => {
    const { tenantId, keyId } = principalOf(req);
    const { name } = createKeyBody.parse(req.body);
    const active = (await keys.list(tenantId)).filter((k) => !k.revokedAt).length;
    if (active >= MAX_ACTIVE_KEYS_PER_TENANT)
      throw new HttpProblem(409, "Too many keys", `a tenant has at most ${MAX_ACTIVE_KEYS_PER_TENANT} active keys: revoke one first`);
    const { key, record } = await keys.create(tenantId, name);
    res.status(201).json({ ...presentKey(record, keyId), key });
  });

  r.delete("/v3/keys/:id", async (req, res) => {
    const { tenantId, keyId } = principalOf(req);
    const id = keyIdParam.parse(req.params.id);
    if (id === keyId)
      throw new HttpProblem(
        409,
        "Cannot revoke the calling key",
        "a key does not revoke itself: revoke it with another key of the tenant, or with `pnpm keys revoke`",
      );
    const found = (await keys.list(tenantId)).find((k) => k.id === id);
    if (!found) throw new HttpProblem(404, "Key not found", `no key ${id}`);
    // Revoking a revoked key changes nothing and answers the first revocation's time.
    if (!found.revokedAt) await keys.revoke(id, tenantId);
    const after = (await keys.list(tenantId)).find((k) => k.id === id) ?? found;
    res.json(presentKey(after, keyId));
  });

  return r;
}
