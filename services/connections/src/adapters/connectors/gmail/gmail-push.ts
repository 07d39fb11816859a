import { OAuth2Client } from "google-auth-library";
import { z } from "zod";
import type { WebhookNotification, WebhookRoute } from "../../../app/sync-ports";
import { ConnectorError } from "../../../domain/errors";

/**
 * Gmail's real-time notifications: `users.watch` publishes a mailbox's
 * changes to a Cloud Pub/Sub topic, and an authenticated push subscription
 * POSTs each message to Engram's one Gmail URL. The push is verified with
 * google-auth-library's `verifyIdToken`: the `Authorization: Bearer` OIDC
 * token must be signed by Google (certificates from `certsUrl`, Google's by
 * default), issued for `audience` (the push URL, as the subscription names
 * it), with a verified email: the subscription's service account. Both
 * the audience and the service account must be configured; until they are,
 * every push is refused (503) rather than trusted because Google signed it
 * (any Google service account can mint such a token). The envelope's data is Gmail's `{ emailAddress, historyId }`:
 * the mailbox is the account the connections are found by, and the Pub/Sub
 * message id makes redeliveries one sync.
 */

const envelopeSchema = z.object({
  message: z.object({
    data: z.string().min(1),
    messageId: z.string().min(1).optional(),
    message_id: z.string().min(1).optional(),
  }),
  subscription: z.string().optional(),
});
const notificationSchema = z.object({ emailAddress: z.string().min(3).includes("@"), historyId: z.union([z.string(), z.number()]) });

export interface GmailPushOptions {
  /** The audience the push subscription's tokens carry (its push endpoint URL unless set otherwise). */
  audience?: string;
  /** Only tokens of this service account are accepted; unset: every push is refused. */
  serviceAccountEmail?: string;
  /** Where Google publishes its token-signing certificates (PEM). */
  certsUrl: string;
}

export class GmailPushVerifier {
  private readonly oidc: OAuth2Client;

  constructor(private readonly o: GmailPushOptions) {
    // Certificates from certsUrl (a local fake in tests); fetched with the platform's fetch and cached as Google's Cache-Control says.
    this.oidc = new OAuth2Client({ endpoints: { oauth2FederatedSignonPemCertsUrl: o.certsUrl }, transporterOptions: { fetchImplementation: fetch } });
  }

  /** The accounts a verified push concerns, or why it is refused. */
  async route(n: WebhookNotification): Promise<WebhookRoute> {
    if (!this.o.audience) return { kind: "reject", status: 503, reason: "Gmail pushes cannot be verified: set GMAIL_PUSH_AUDIENCE or ENGRAM_PUBLIC_URL" };
    if (!this.o.serviceAccountEmail)
      return {
        kind: "reject",
        status: 503,
        reason: "Gmail pushes cannot be verified: set GMAIL_PUSH_SERVICE_ACCOUNT to the push subscription's service account",
      };
    const idToken = /^Bearer +(\S+)$/i.exec(n.headers.authorization ?? "")?.[1];
    if (!idToken) return { kind: "reject", status: 401, reason: "the push carries no Bearer token" };
    let claims: { email?: string; email_verified?: boolean } | undefined;
    try {
      claims = (await this.oidc.verifyIdToken({ idToken, audience: this.o.audience })).getPayload();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // Google's certificates out of reach is not the sender's fault: the push is retried by Pub/Sub.
      if (/Failed to retrieve verification certificates/.test(message))
        throw new ConnectorError("provider_unavailable", "Google's token certificates could not be fetched", { cause: e });
      return { kind: "reject", status: 401, reason: "the push token does not verify" };
    }
    if (claims?.email_verified !== true || !claims.email) return { kind: "reject", status: 401, reason: "the push token has no verified email" };
    if (claims.email.toLowerCase() !== this.o.serviceAccountEmail.toLowerCase())
      return { kind: "reject", status: 401, reason: "the push token is not the push subscription's service account" };
    let notification: z.infer<typeof notificationSchema>;
    let messageId: string | undefined;
    try {
      const envelope = envelopeSchema.parse(JSON.parse(n.body.toString("utf8")));
      messageId = envelope.message.messageId ?? envelope.message.message_id;
      notification = notificationSchema.parse(JSON.parse(Buffer.from(envelope.message.data, "base64").toString("utf8")));
    } catch {
      return { kind: "reject", status: 400, reason: "the body is not a Pub/Sub push of a Gmail notification" };
    }
    return { kind: "accounts", accounts: [notification.emailAddress.trim().toLowerCase()], ...(messageId ? { deliveryId: messageId } : {}) };
  }
}
