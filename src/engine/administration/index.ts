// What owners, admins and members do from the console beyond the posts page (docs/console.md): the workspace's
// settings and portal branding, its API keys and portal secret, its webhooks, contacts made by hand and the
// data-subject requests, and the changelog. Each is the engine's own change (the same events and mail as through REST
// or the command line), refused to a role that may not make it, and recorded in the audit log in its transaction.
import type { Scope } from '../../schemas/common.js';
import type { CreateWebhookBody, UpdateWebhookBody } from '../../schemas/webhooks.js';
import { createKeysService, type KeyCache } from '../access/index.js';
import { type ChangelogEdit, createChangelogService } from '../changelog/index.js';
import { createContactsService } from '../contacts/index.js';
import { createOrganizationsService, type UpdateOrganizationInput } from '../organizations/index.js';
import { createParticipation, type PortalContext } from '../portal/index.js';
import { createPrivacyService } from '../privacy/index.js';
import { FeedbackError } from '../shared/index.js';
import { type Actor, actAs } from '../team/index.js';
import { createWebhooksService, type WebhooksContext } from '../webhooks/index.js';

/** What the administration runs with: the workspace, the server's webhook settings, and the key cache that hears of changes. */
export interface AdministrationContext extends WebhooksContext, PortalContext {
  keyCache: KeyCache;
}

/** The settings a workspace's owners and admins change themselves; plan, billing, caps and rate limits are the operator's. */
const SETTINGS = [
  'name',
  'adminEmails',
  'handle',
  'portalEnabled',
  'portalVerifiedOnly',
  'portalModeration',
  'portalFrameOrigins',
  'notifyAdminCreated',
  'portalLogoUrl',
  'portalAccent',
] as const satisfies ReadonlyArray<keyof UpdateOrganizationInput>;
export type WorkspaceSettings = Pick<UpdateOrganizationInput, (typeof SETTINGS)[number]>;

/** An admin's attestation of the lawful basis for a contact made by hand: a sentence, kept in the audit log. */
function attestation(text: string): string {
  const said = text.trim();
  if (said.length < 3)
    throw new FeedbackError(
      'ERR_VALIDATION',
      'Say on what basis you add this person (for example: “customer since 2024, agreed to product updates”).',
    );
  if (said.length > 500) throw new FeedbackError('ERR_VALIDATION', 'The attestation must be at most 500 characters.');
  return said;
}

/** A workspace's administration, as one team member (or the command line). */
export function createAdministration(ctx: AdministrationContext, actor: Actor) {
  const keys = (inner: AdministrationContext) => createKeysService(inner.db, inner.clock, inner.keyCache);
  return {
    /** The workspace's own settings (owners and admins); `workspace.settings_changed` names the fields changed. */
    updateSettings: (change: WorkspaceSettings) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const input = Object.fromEntries(
          SETTINGS.filter((k) => change[k] !== undefined).map((k) => [k, change[k]]),
        ) as WorkspaceSettings;
        const org = await createOrganizationsService(inner).update(ctx.organizationId, input);
        return {
          result: org,
          audit: {
            action: 'workspace.settings_changed',
            resourceType: 'workspace',
            resourceId: ctx.organizationId,
            detail: { fields: Object.keys(input) },
          },
        };
      }),

    keys: {
      create: (scope: Scope) =>
        actAs(ctx, actor, 'manage', async (inner) => {
          const key = await keys(inner).create(ctx.organizationId, scope);
          return {
            result: key,
            audit: { action: 'api_key.created', resourceType: 'api_key', resourceId: key.id, detail: { scope } },
          };
        }),
      revoke: (keyId: string) =>
        actAs(ctx, actor, 'manage', async (inner) => ({
          result: await keys(inner).revoke(keyId, ctx.organizationId),
          audit: { action: 'api_key.revoked', resourceType: 'api_key', resourceId: keyId },
        })),
      /** A new key of the same scope (shown once); the old one works `graceSeconds` more. */
      rotate: (keyId: string, graceSeconds: number) =>
        actAs(ctx, actor, 'manage', async (inner) => {
          const key = await keys(inner).rotate(ctx.organizationId, keyId, graceSeconds);
          return {
            result: key,
            audit: {
              action: 'api_key.rotated',
              resourceType: 'api_key',
              resourceId: keyId,
              detail: { by: key.id, until: key.previousValidUntil },
            },
          };
        }),
    },

    portalSecret: {
      create: () =>
        actAs(ctx, actor, 'manage', async (inner) => ({
          result: await createParticipation(inner).secret.create(),
          audit: { action: 'portal_secret.created', resourceType: 'workspace', resourceId: ctx.organizationId },
        })),
      rotate: (graceSeconds: number) =>
        actAs(ctx, actor, 'manage', async (inner) => {
          const rotated = await createParticipation(inner).secret.rotate(graceSeconds);
          return {
            result: rotated,
            audit: {
              action: 'portal_secret.rotated',
              resourceType: 'workspace',
              resourceId: ctx.organizationId,
              detail: { until: rotated.previousValidUntil },
            },
          };
        }),
    },

    webhooks: {
      /** The secret is in this result and nowhere else. */
      create: (body: CreateWebhookBody) =>
        actAs(ctx, actor, 'manage', async (inner) => {
          const webhook = await createWebhooksService(inner).create(body);
          return {
            result: webhook,
            audit: {
              action: 'webhook.created',
              resourceType: 'webhook',
              resourceId: webhook.id,
              detail: { url: webhook.url, events: webhook.events },
            },
          };
        }),
      /** As PATCH: `enabled: true` re-enables and resets the failure counter. */
      update: (webhookId: string, body: UpdateWebhookBody) =>
        actAs(ctx, actor, 'manage', async (inner) => {
          const webhook = await createWebhooksService(inner).update(webhookId, body);
          const action =
            body.enabled === true ? 'webhook.enabled' : body.enabled === false ? 'webhook.disabled' : 'webhook.updated';
          return {
            result: webhook,
            audit: { action, resourceType: 'webhook', resourceId: webhookId, detail: { fields: Object.keys(body) } },
          };
        }),
      delete: (webhookId: string) =>
        actAs(ctx, actor, 'manage', async (inner) => ({
          result: await createWebhooksService(inner).delete(webhookId),
          audit: { action: 'webhook.deleted', resourceType: 'webhook', resourceId: webhookId },
        })),
      replay: (webhookId: string, deliveryId: string) =>
        actAs(ctx, actor, 'manage', async (inner) => {
          const delivery = await createWebhooksService(inner).replayDelivery(webhookId, deliveryId);
          return {
            result: delivery,
            audit: {
              action: 'webhook.delivery_replayed',
              resourceType: 'webhook',
              resourceId: webhookId,
              detail: { delivery: deliveryId, replay: delivery.id },
            },
          };
        }),
    },

    contacts: {
      /**
       * A contact made by hand: as `POST /v1/contacts` (source `admin`, consent basis `admin_created`, `contact.created`),
       * with the admin's attestation of the lawful basis kept in the audit log.
       */
      create: (body: unknown, attested: string) =>
        actAs(ctx, actor, 'manage', async (inner) => {
          const said = attestation(attested);
          const contact = await createContactsService(inner).create(body);
          return {
            result: contact,
            audit: {
              action: 'contact.created',
              resourceType: 'contact',
              resourceId: contact.id,
              detail: { attestation: said },
            },
          };
        }),
      /** The data-subject access request: everything held about the person. */
      export: (contactId: string) =>
        actAs(ctx, actor, 'manage', async (inner) => ({
          result: await createPrivacyService(inner).export(contactId),
          audit: { action: 'contact.exported', resourceType: 'contact', resourceId: contactId },
        })),
      /** The erasure request; the audit entry names the contact's id only. */
      erase: (contactId: string) =>
        actAs(ctx, actor, 'manage', async (inner) => ({
          result: await createPrivacyService(inner).erase(contactId),
          audit: { action: 'contact.erased', resourceType: 'contact', resourceId: contactId },
        })),
    },

    changelog: {
      create: (input: { boardId: string; title: string; body?: string }) =>
        actAs(ctx, actor, 'triage', async (inner) => {
          const entry = await createChangelogService(inner).create(input);
          return {
            result: entry,
            audit: { action: 'changelog.drafted', resourceType: 'changelog_entry', resourceId: entry.id },
          };
        }),
      /** Change a draft's title, Markdown body and the posts it ships, together. */
      edit: (entryId: string, change: ChangelogEdit & { postIds?: readonly string[] }) =>
        actAs(ctx, actor, 'triage', async (inner) => {
          const { postIds, ...text } = change;
          const service = createChangelogService(inner);
          const entry = await service.edit(entryId, text);
          const linked = postIds === undefined ? undefined : await service.linkPosts(entryId, postIds);
          return {
            result: entry,
            audit: {
              action: 'changelog.edited',
              resourceType: 'changelog_entry',
              resourceId: entryId,
              detail: { fields: Object.keys(change), ...(linked ? { posts: linked } : {}) },
            },
          };
        }),
      /** Publish (with `ship`, its linked posts move to shipped); the mail goes out with it. */
      publish: (entryId: string, options: { ship?: boolean } = {}) =>
        actAs(ctx, actor, 'triage', async (inner) => ({
          result: await createChangelogService(inner).publish(entryId, options),
          audit: {
            action: 'changelog.published',
            resourceType: 'changelog_entry',
            resourceId: entryId,
            detail: { ship: options.ship === true },
          },
        })),
    },
  };
}
export type Administration = ReturnType<typeof createAdministration>;
