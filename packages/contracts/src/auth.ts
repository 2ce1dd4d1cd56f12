import { z } from 'zod';
import { Role, Timestamp } from './common';

export const LoginRequest = z.object({
  email: z.string().trim().min(1, { message: 'email is required' }).max(254),
  password: z.string().min(1, { message: 'password is required' }).max(256),
});

export const LoginResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int().describe('seconds until the token expires'),
  user_id: z.string(),
  role: Role,
  branch_id: z.string(),
  branch_name: z.string(),
  full_name: z.string(),
  must_change_password: z.boolean(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const Password = z
  .string()
  .min(8, { message: 'must be at least 8 characters' })
  .max(256, { message: 'must be at most 256 characters' });

export const ChangePasswordRequest = z.object({
  current_password: z.string().min(1, { message: 'current_password is required' }).max(256),
  new_password: Password,
});

export const ChangePasswordResponse = z.object({
  changed_at: Timestamp,
  access_token: z.string().describe('a fresh token; tokens issued before the change are revoked'),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
