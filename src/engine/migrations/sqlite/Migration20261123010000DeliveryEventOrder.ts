import { Migration } from '@mikro-orm/migrations';

/**
 * A webhook's deliveries list newest first by (created_at, event_id, id): the fan-out trigger gives deliveries the
 * event's time but a random tail, so within one millisecond only the event id (monotonic) tells their order.
 */
export class Migration20261123010000DeliveryEventOrder extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index if exists `delivery_webhook_created_idx`');
    this.addSql(
      'create index `delivery_webhook_created_idx` on `delivery` (`webhook_id`, `created_at`, `event_id`, `id`)',
    );
  }
}
