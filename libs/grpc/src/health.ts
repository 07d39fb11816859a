import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath } from "grpc-health-check";
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
    return new Promise((resolve) => {
      this.client.check({ service: this.service }, { deadline: Date.now() + timeoutMs }, (err, res) => resolve(!err && res?.status === "SERVING"));
    });
  }

  close(): void {
    this.client.close();
  }
}
