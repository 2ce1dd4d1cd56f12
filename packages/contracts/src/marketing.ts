import { z } from 'zod';
import { OptionalText, Text, Timestamp } from './common';

export const ContactRequest = z.object({
  name: Text(120),
  email: z.string().trim().max(254).email({ message: 'must be an email address' }),
  phone: OptionalText(40).default(''),
  company: OptionalText(200).default(''),
  message: Text(5000),
});

export const ContactResponse = z.object({ id: z.string(), received_at: Timestamp });
