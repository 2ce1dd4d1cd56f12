import type { EntityRegistration } from '../sync/registry';

const currencyEntity: EntityRegistration = {
  entity: 'currency',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Currencies',
  rest: [
    { method: 'post', path: '/currency' },
    { method: 'patch', path: '/currency/:code' },
  ],
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
  label: 'Exchange rates',
  rest: [{ method: 'post', path: '/currency/rates' }],
  table: 'exchange_rates',
  order: 50,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const currencyEntities: readonly EntityRegistration[] = [currencyEntity, exchangeRateEntity];
