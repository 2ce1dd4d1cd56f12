import { SettingsResponse, UpdateSettingsRequest } from '@pharmacy/contracts';
import { ADMIN_ONLY } from '@pharmacy/contracts/roles';
import type { ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { getSettingsWithTimestamp, updateSettings } from './service';

export function settingsRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/settings',
    tag: 'Settings',
    summary: 'Read the organisation settings (names, tax policy, receipt texts, policies)',
    roles: 'any',
    responses: { 200: { description: 'The settings', schema: SettingsResponse } },
    handler: ({ app }) => getSettingsWithTimestamp(app),
  });

  r.route({
    method: 'put',
    path: '/settings',
    tag: 'Settings',
    summary: 'Change organisation settings',
    description:
      'Admin only. The given top-level fields replace the current ones (nested objects such as tax_policy are replaced whole); the change is audited with before and after.',
    roles: ADMIN_ONLY,
    body: UpdateSettingsRequest,
    responses: { 200: { description: 'The settings after the change', schema: SettingsResponse } },
    handler: ({ app, user, body, requestId }) => updateSettings(app, actorOf(user, requestId), body),
  });
}
