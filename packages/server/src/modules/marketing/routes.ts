import { ContactRequest, ContactResponse } from '@pharmacy/contracts';
import { created, type ApiRouter } from '../../http/route';
import { recordContact } from './service';

export function marketingRoutes(r: ApiRouter): void {
  r.publicRoute({
    method: 'post',
    path: '/marketing/contact',
    tag: 'Marketing',
    summary: 'Send a marketing enquiry',
    description: 'Public. At most 5 enquiries per client address per hour (429 with Retry-After beyond).',
    body: ContactRequest,
    responses: {
      201: { description: 'Received', schema: ContactResponse },
      429: { description: 'Too many enquiries' },
    },
    handler: async ({ app, body, req }) => created(await recordContact(app, body, req.ip ?? 'unknown')),
  });
}
