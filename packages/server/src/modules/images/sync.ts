import type { EntityRegistration } from '../sync/registry';

/** Branding assets (the receipt logo): central-owned, every till, keyed by name; the payload is the row. */
const brandingAssetEntity: EntityRegistration = {
  entity: 'branding_asset',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Branding images',
  rest: [{ method: 'put', path: '/images/branding/logo', atConnectedTill: 'refused' }],
  table: 'branding_assets',
  key: 'name',
  order: 75,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const imagesEntities: readonly EntityRegistration[] = [brandingAssetEntity];
