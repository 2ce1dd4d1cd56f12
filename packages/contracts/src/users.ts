import { z } from 'zod';
import { BoolQuery, Id, OptionalText, PageQuery, Role, Text, Timestamp } from './common';
import { Password } from './auth';

export const User = z.object({
  id: z.string(),
  branch_id: z.string(),
  branch_name: z.string(),
  email: z.string(),
  full_name: z.string(),
  phone: z.string(),
  role: Role,
  is_active: z.boolean(),
  must_change_password: z.boolean(),
  last_login_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type User = z.infer<typeof User>;

export const Email = z.string().trim().toLowerCase().max(254).email({ message: 'must be an email address' });

export const CreateUserRequest = z.object({
  email: Email,
  password: Password,
  full_name: Text(120),
  phone: OptionalText(40).default(''),
  role: Role,
  branch_id: Id,
});

export const UpdateUserRequest = z
  .object({
    email: Email,
    full_name: Text(120),
    phone: OptionalText(40),
    role: Role,
    branch_id: Id,
    is_active: z.boolean(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });

export const ResetPasswordRequest = z
  .object({ new_password: Password, confirm_password: z.string().max(256) })
  .refine((v) => v.new_password === v.confirm_password, {
    message: 'confirm_password must equal new_password',
    path: ['confirm_password'],
  });

export const UserListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  role: Role.optional(),
  is_active: BoolQuery.optional(),
  search: z.string().trim().max(100).optional(),
});

export const Me = User;
