import { registerEntity } from '../sync/registry';

/** Branding assets (the receipt logo): central-owned, every till, keyed by name; the payload is the row. */
registerEntity({
  entity: 'branding_asset',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'branding_assets',
  key: 'name',
  order: 75,
});
