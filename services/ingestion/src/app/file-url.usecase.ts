import { createHmac, timingSafeEqual } from "node:crypto";
import { type Clock, FailedPreconditionError, NotFoundError, PermissionDeniedError } from "@engram/kernel";
import type { DocumentRecord } from "../domain/document";
import type { GetDocumentUseCase } from "./get-document.usecase";
import type { DocumentRepository, FileStore } from "./ports";

interface TokenBody {
  t: string; // tenant
  d: string; // document id
  g: number; // generation
  e: number; // expiry, unix seconds
}

/**
 * Expiring links to stored originals: an HMAC-SHA256 signed token naming the
 * tenant, document and generation. The gateway serves the bytes for a valid
 * token without an API key (so the link can be handed to a browser).
 */
export class FileUrlUseCase {
  static readonly DEFAULT_TTL_SECONDS = 15 * 60;
  static readonly MAX_TTL_SECONDS = 7 * 24 * 3600;

  constructor(
    private readonly repo: DocumentRepository,
    private readonly files: FileStore,
    private readonly getDocument: GetDocumentUseCase,
    private readonly secret: Buffer,
    private readonly clock: Clock,
  ) {}

  private sign(payload: string): string {
    return createHmac("sha256", this.secret).update(payload).digest("base64url");
  }

  async create(
    tenantId: string,
    namespace: string | undefined,
    id: string,
    ttlSeconds?: number,
  ): Promise<{ token: string; expiresAt: Date; doc: DocumentRecord }> {
    const doc = await this.getDocument.execute(tenantId, namespace, id);
    if (!doc.file) throw new FailedPreconditionError(`document ${id} has no stored file`, "only documents added as files keep an original");
    const ttl = Math.min(Math.max(ttlSeconds || FileUrlUseCase.DEFAULT_TTL_SECONDS, 1), FileUrlUseCase.MAX_TTL_SECONDS);
    const expiresAt = new Date(this.clock.now().getTime() + ttl * 1000);
    const body: TokenBody = { t: tenantId, d: doc.id, g: doc.generation, e: Math.floor(expiresAt.getTime() / 1000) };
    const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
    return { token: `${payload}.${this.sign(payload)}`, expiresAt, doc };
  }

  async open(token: string): Promise<{ doc: DocumentRecord; bytes: AsyncIterable<Uint8Array> }> {
    const [payload, sig] = token.split(".");
    if (!payload || !sig) throw new PermissionDeniedError("invalid file link");
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new PermissionDeniedError("invalid file link");
    let body: TokenBody;
    try {
      body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as TokenBody;
    } catch {
      throw new PermissionDeniedError("invalid file link");
    }
    if (body.e * 1000 < this.clock.now().getTime())
      throw new PermissionDeniedError("the file link has expired", "request a new one from GET /v3/documents/{id}/file-url");
    const doc = await this.repo.findById(body.t, body.d);
    if (!doc || !doc.file || doc.generation !== body.g) throw new NotFoundError("the file no longer exists");
    return { doc, bytes: this.files.read(doc.file.key) };
  }
}
