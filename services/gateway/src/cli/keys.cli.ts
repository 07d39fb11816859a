/**
 * API key administration against the gateway's key store: SQLite under
 * ENGRAM_DATA_DIR, or MongoDB with STORE=mongo (MONGO_URL, MONGO_DB).
 *   pnpm keys create --tenant acme [--name ci] [--scopes read,write] [--container-tags user_1,user_2]
 *   pnpm keys list
 *   pnpm keys revoke <key-id>
 */
import { parseArgs } from "node:util";
import type { ApiKeyStore } from "../auth/api-key";
import { KeyService } from "../auth/keys.service";
import { openGatewayKeyStore } from "../auth/open-key-store";
import { isScope, type KeyRights, rightsOf, SCOPES } from "../auth/scopes";

const USAGE =
  "usage: keys create --tenant <tenant> [--name <name>] [--scopes read,write,admin] [--container-tags <tag>,…] | keys list | keys revoke <key-id>\n  (uses ENGRAM_DATA_DIR, default ./.data; with STORE=mongo, MONGO_URL and MONGO_DB)";

export async function runKeysCli(argv: string[], out: (s: string) => void, dataDir: string, mongo?: { url: string; dbName: string }): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { tenant: { type: "string" }, name: { type: "string" }, scopes: { type: "string" }, "container-tags": { type: "string" } },
  });
  const [command, arg] = positionals;
  const store: ApiKeyStore = await openGatewayKeyStore({ ENGRAM_DATA_DIR: dataDir }, mongo);
  const keys = new KeyService(store, 0);
  try {
    switch (command) {
      case "create": {
        const tenant = values.tenant;
        if (!tenant || !/^[A-Za-z0-9._-]{1,64}$/.test(tenant)) {
          out(`--tenant is required: letters, digits, '.', '_' or '-'\n${USAGE}`);
          return 2;
        }
        const list = (v: string | undefined) =>
          v === undefined
            ? undefined
            : v
                .split(",")
                .map((x) => x.trim())
                .filter(Boolean);
        const scopes = list(values.scopes);
        if (scopes && (scopes.length === 0 || !scopes.every(isScope))) {
          out(`--scopes: a comma-separated list of read, write, admin\n${USAGE}`);
          return 2;
        }
        const tags = list(values["container-tags"]);
        if (tags && (tags.length === 0 || !tags.every((t) => /^[A-Za-z0-9._:-]{1,100}$/.test(t)))) {
          out(`--container-tags: a comma-separated list of container tags (letters, digits, '.', '_', ':' or '-')\n${USAGE}`);
          return 2;
        }
        // Without --scopes and --container-tags: every scope, every tag (an operator's key).
        const rights: KeyRights | undefined =
          scopes || tags
            ? { scopes: scopes ? SCOPES.filter((x) => scopes.includes(x)) : [...SCOPES], ...(tags ? { containerTags: [...new Set(tags)] } : {}) }
            : undefined;
        const { key, record } = await keys.create(tenant, values.name ?? "cli", rights);
        const r = rightsOf(record);
        const limits = rights ? `, scopes ${r.scopes.join(",")}${r.containerTags ? `, container tags ${r.containerTags.join(",")}` : ""}` : "";
        out(`created key ${record.id} for tenant ${tenant}${limits} (shown once):\n${key}`);
        return 0;
      }
      case "list": {
        const rows = await keys.list();
        if (rows.length === 0) out("no keys");
        for (const k of rows)
          out(
            `${k.id}  tenant=${k.tenantId}  name=${k.name}  prefix=${k.prefix}…  scopes=${rightsOf(k).scopes.join(",")}${k.containerTags ? `  tags=${k.containerTags.join(",")}` : ""}  created=${k.createdAt}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ""}`,
          );
        return 0;
      }
      case "revoke": {
        if (!arg) {
          out(USAGE);
          return 2;
        }
        const ok = await keys.revoke(arg);
        out(ok ? `revoked ${arg}` : `no active key ${arg}`);
        return ok ? 0 : 1;
      }
      default:
        out(USAGE);
        return 2;
    }
  } finally {
    await store.close();
  }
}
