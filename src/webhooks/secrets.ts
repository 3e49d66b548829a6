// Webhook signing secrets at rest: sealed with the configured key (src/platform/infra/secret-box.ts) and
// bound to their webhook's id, opened only to sign a delivery. A value sealed under a previous key
// is re-sealed with the current one when it is read, and at every start (sealStored), which also
// seals the secrets stored in plaintext before secrets were encrypted.
import type { Database } from '../platform/db/index.js';
import { replaceStoredSecret, secretsNotSealedWith } from './secret-queries.js';
import type { SealedSecret } from './subscription-queries.js';
import { ApiError } from '../catalog/index.js';
import { open, seal, SecretBoxError, sealedPrefix, type Keyring } from '../platform/infra/index.js';

/** What one webhook's secret is bound to: a sealed secret moved onto another webhook does not open. */
export const secretContext = (webhookId: string) => `webhook:${webhookId}`;
const context = secretContext;

const last4 = (secret: string) => secret.slice(-4);

/** A stored secret that does not open with this server's keys: nothing is signed with it. */
export class SecretUnreadable extends Error {
  override name = 'SecretUnreadable';
  constructor(
    readonly webhookId: string,
    readonly reason: SecretBoxError['reason'],
  ) {
    super(
      reason === 'unknown_key'
        ? `the signing secret of webhook ${webhookId} was sealed with a key this server is not configured with (SECRETS_KEY, SECRETS_KEY_PREVIOUS)`
        : reason === 'tampered'
          ? `the stored signing secret of webhook ${webhookId} does not authenticate: it was changed, or copied from another webhook`
          : `the stored signing secret of webhook ${webhookId} is not a sealed value`,
    );
  }
}

/** What the API answers when a secret cannot be opened: nothing was sent, and how the owner gets going again. */
export const secretUnreadableError = () =>
  new ApiError(
    'UNAVAILABLE',
    "Nothing was sent: this webhook's signing secret cannot be read with the server's current keys. " +
      'Rotate the secret (rotate_secret) to get a new one, or ask the operator to check SECRETS_KEY.',
  );

export interface SealingReport {
  /** Plaintext secrets sealed (a store from before secrets were encrypted). */
  sealed: number;
  /** Secrets moved from a previous key to the current one. */
  resealed: number;
  /** Secrets no configured key opens, left as they are. */
  unreadable: number;
}

export class WebhookSecrets {
  constructor(
    private readonly db: Database,
    private readonly keyring: Keyring,
    private readonly log: { error(message: string): void } = { error: () => undefined },
  ) {}

  /** A secret sealed for webhook `webhookId`, with what is shown of it. */
  seal(webhookId: string, secret: string): { sealed: SealedSecret; last4: string } {
    return { sealed: seal(secret, this.keyring.current, context(webhookId)), last4: last4(secret) };
  }

  /**
   * The webhook's secret, to sign with; throws SecretUnreadable when no configured key opens it
   * (never signs with anything else). One sealed under a previous key is re-sealed with the current one.
   */
  async open(webhook: { id: string; secret: SealedSecret }): Promise<string> {
    let opened: { plaintext: string; keyId: string };
    try {
      opened = open(webhook.secret, this.keyring, context(webhook.id));
    } catch (error) {
      if (error instanceof SecretBoxError) throw new SecretUnreadable(webhook.id, error.reason);
      throw error;
    }
    if (opened.keyId !== this.keyring.current.id) {
      const { sealed } = this.seal(webhook.id, opened.plaintext);
      // The secret is good either way; a failed re-seal is tried again at the next read or start.
      await replaceStoredSecret(this.db, webhook.id, webhook.secret, sealed, last4(opened.plaintext)).catch((error: unknown) =>
        this.log.error(`webhooks: re-sealing the secret of ${webhook.id} failed: ${(error as Error).message}`),
      );
    }
    return opened.plaintext;
  }

  /**
   * Seals every stored secret that is not sealed under the current key: plaintext ones (a store
   * from before secrets were encrypted) and ones under a previous key. Each row changes only if it
   * still holds what was read, so instances starting together do not undo each other's work.
   */
  async sealStored(): Promise<SealingReport> {
    const report: SealingReport = { sealed: 0, resealed: 0, unreadable: 0 };
    for (const row of await secretsNotSealedWith(this.db, sealedPrefix(this.keyring.current))) {
      let plaintext: string;
      let kind: 'sealed' | 'resealed';
      if (row.secret.startsWith('whsec_')) {
        plaintext = row.secret;
        kind = 'sealed';
      } else {
        try {
          plaintext = open(row.secret, this.keyring, context(row.id)).plaintext;
          kind = 'resealed';
        } catch (error) {
          if (!(error instanceof SecretBoxError)) throw error;
          report.unreadable++;
          continue;
        }
      }
      const { sealed } = this.seal(row.id, plaintext);
      if (await replaceStoredSecret(this.db, row.id, row.secret, sealed, last4(plaintext))) report[kind]++;
    }
    return report;
  }
}
