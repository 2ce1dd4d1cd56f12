import { ADMIN_ONLY } from '@pharmacy/contracts/roles';
import {
  BranchCurrency,
  CreateCurrencyRequest,
  CreateExchangeRateRequest,
  Currency,
  CurrencyCodeParam,
  CurrencyList,
  CurrencyListQuery,
  CurrencyOverview,
  EffectiveRate,
  EffectiveRateQuery,
  ExchangeRate,
  ExchangeRateListQuery,
  pageOf,
  RateCheckRequest,
  RateCheckResult,
  UpdateCurrencyRequest,
} from '@pharmacy/contracts';
import { created, type ApiRouter } from '../../http/route';
import { nowIso } from '../../lib/time';
import { actorOf } from '../audit/service';
import { getSettings } from '../settings/service';
import { getBranch } from '../branches/service';
import {
  checkRate,
  createCurrency,
  createRate,
  currencyOverview,
  getCurrency,
  listCurrencies,
  listRates,
  presentRate,
  resolveRate,
  updateCurrency,
} from './service';

export function currencyRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/currency',
    tag: 'Currency',
    summary: 'List the currency registry',
    roles: 'any',
    query: CurrencyListQuery,
    responses: {
      200: { description: 'Currencies, active only unless include_inactive=true', schema: CurrencyList },
    },
    handler: async ({ app, query }) => ({
      items: await listCurrencies(app, query.include_inactive ?? false),
    }),
  });

  r.route({
    method: 'post',
    path: '/currency',
    tag: 'Currency',
    summary: 'Add a currency to the registry',
    roles: ADMIN_ONLY,
    body: CreateCurrencyRequest,
    responses: {
      201: { description: 'The currency', schema: Currency },
      409: { description: 'The code exists' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createCurrency(app, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'patch',
    path: '/currency/:code',
    tag: 'Currency',
    summary: 'Rename, re-symbol, activate or deactivate a currency',
    description:
      'The base currency cannot be deactivated; the exponent of a currency in use cannot change (409).',
    roles: ADMIN_ONLY,
    params: CurrencyCodeParam,
    body: UpdateCurrencyRequest,
    responses: {
      200: { description: 'The currency', schema: Currency },
      404: { description: 'Unknown code' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updateCurrency(app, actorOf(user, requestId), params.code, body),
  });

  r.route({
    method: 'get',
    path: '/currency/branch',
    tag: 'Currency',
    summary: "The caller's branch currency",
    roles: 'any',
    responses: { 200: { description: 'Branch and its currency', schema: BranchCurrency } },
    handler: async ({ app, user }) => {
      const branch = await getBranch(app, user.branchId);
      return {
        branch_id: branch.id,
        branch_name: branch.name,
        currency: await getCurrency(app.db, branch.currency_code),
      };
    },
  });

  r.route({
    method: 'get',
    path: '/currency/overview',
    tag: 'Currency',
    summary: 'Base currency, active currencies, branch currencies and the latest rate of each pair',
    roles: 'any',
    responses: { 200: { description: 'The overview', schema: CurrencyOverview } },
    handler: ({ app }) => currencyOverview(app),
  });

  r.route({
    method: 'get',
    path: '/currency/effective',
    tag: 'Currency',
    summary: 'Resolve the rate in force for a pair at a time',
    description:
      'Latest rate filed for from->to at or before `at` (default now); if only the opposite pair exists its inverse is used. `to` defaults to the base currency. 404 when no rate applies.',
    roles: 'any',
    query: EffectiveRateQuery,
    responses: {
      200: { description: 'The effective rate', schema: EffectiveRate },
      404: { description: 'No rate on file' },
    },
    handler: async ({ app, query }) => {
      const to = query.to ?? (await getSettings(app)).base_currency_code;
      const at = query.at ? new Date(query.at).toISOString() : nowIso();
      return presentRate(await resolveRate(app.db, query.from, to, at));
    },
  });

  r.route({
    method: 'get',
    path: '/currency/rates',
    tag: 'Currency',
    summary: 'List filed exchange rates, newest effective first',
    roles: 'any',
    query: ExchangeRateListQuery,
    responses: { 200: { description: 'A page of rates', schema: pageOf(ExchangeRate) } },
    handler: ({ app, query }) => listRates(app, query),
  });

  r.route({
    method: 'post',
    path: '/currency/rates',
    tag: 'Currency',
    summary: 'File an exchange rate with an effective time',
    description:
      '1 unit of from_code = rate units of to_code (default the base currency). Rates are never edited; file a new one.',
    roles: ADMIN_ONLY,
    body: CreateExchangeRateRequest,
    responses: { 201: { description: 'The filed rate', schema: ExchangeRate } },
    handler: async ({ app, user, body, requestId }) =>
      created(await createRate(app, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'post',
    path: '/currency/rates/check',
    tag: 'Currency',
    summary: 'Check a proposed sale rate against the effective rate and the tolerance in settings',
    roles: 'any',
    body: RateCheckRequest,
    responses: {
      200: { description: 'The verdict with the deviation', schema: RateCheckResult },
      404: { description: 'No rate on file' },
    },
    handler: ({ app, body }) => checkRate(app, body),
  });
}
