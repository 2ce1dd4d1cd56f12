import type { EntityRegistration } from '../sync/registry';

const currencyEntity: EntityRegistration = {
  entity: 'currency',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'currencies',
  key: 'code',
  order: 10,
  afterApply: (app) => {
    for (const k of [...app.cache.keys()]) if (k.startsWith('exponent:')) app.cache.delete(k);
  },
};

const exchangeRateEntity: EntityRegistration = {
  entity: 'exchange_rate',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'exchange_rates',
  order: 50,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const currencyEntities: readonly EntityRegistration[] = [currencyEntity, exchangeRateEntity];
