import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath } from "grpc-health-check";
import { STORAGE_PARTS, type StoragePart } from "@engram/kernel";
import { CHANNEL_OPTIONS } from "./protos";

type HealthClient = grpc.Client & {
  check(req: { service: string }, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: { status: string }) => void): void;
};

let HealthCtor: grpc.ServiceClientConstructor | undefined;

function healthConstructor(): grpc.ServiceClientConstructor {
  if (!HealthCtor) {
    const def = protoLoader.loadSync(protoPath, { keepCase: false, enums: String, defaults: true });
    const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
    HealthCtor = pkg.grpc.health.v1.Health;
  }
  return HealthCtor;
}

/** grpc.health.v1 client: is a service (or the whole server, "") serving? Over TLS when `credentials` are given. */
export class HealthProbe {
  private readonly client: HealthClient;
  constructor(
    address: string,
    private readonly service = "",
    credentials?: grpc.ChannelCredentials,
  ) {
    this.client = new (healthConstructor())(address, credentials ?? grpc.credentials.createInsecure(), CHANNEL_OPTIONS) as unknown as HealthClient;
  }

  serving(timeoutMs = 1000): Promise<boolean> {
    return this.status(this.service, timeoutMs).then((s) => s === "SERVING");
  }

  /** The status of any name the server reports; `SERVICE_UNKNOWN` for a name it does not know, `UNREACHABLE` when it did not answer. */
  status(service: string, timeoutMs = 1000): Promise<"SERVING" | "NOT_SERVING" | "SERVICE_UNKNOWN" | "UNKNOWN" | "UNREACHABLE"> {
    return new Promise((resolve) => {
      this.client.check({ service }, { deadline: Date.now() + timeoutMs }, (err, res) => {
        if (err) return resolve(err.code === grpc.status.NOT_FOUND ? "SERVICE_UNKNOWN" : "UNREACHABLE");
        resolve(res?.status === "SERVING" || res?.status === "NOT_SERVING" ? res.status : "UNKNOWN");
      });
    });
  }

  /**
   * The state of each storage part the server reports (ProcessRuntime.watchStorage): `ok`, or the
   * failing state (`low`, `full`, `unwritable`). Parts the server does not report are left out.
   */
  async storageStates(timeoutMs = 1000): Promise<Partial<Record<StoragePart, string>>> {
    const out: Partial<Record<StoragePart, string>> = {};
    await Promise.all(
      STORAGE_PARTS.map(async (part) => {
        const st = await this.status(storageHealthName(part), timeoutMs);
        if (st === "SERVING") out[part] = "ok";
        else if (st === "NOT_SERVING") {
          const states = await Promise.all(
            FAILING_STATES.map(async (s) => ((await this.status(storageHealthName(part, s), timeoutMs)) === "SERVING" ? s : undefined)),
          );
          out[part] = states.find((s) => s !== undefined) ?? "failing";
        }
      }),
    );
    return out;
  }

  close(): void {
    this.client.close();
  }
}

const FAILING_STATES = ["full", "unwritable", "low"] as const;

/** The grpc.health.v1 name of a storage part (SERVING while it writes), or of one of its states (SERVING while it is in that state). */
export function storageHealthName(part: string, state?: string): string {
  return state ? `engram.storage.${part}.${state}` : `engram.storage.${part}`;
}
