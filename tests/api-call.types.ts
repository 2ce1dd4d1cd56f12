/**
 * Type tests of the typed client (packages/contracts/src/api-call.ts over the generated api-paths.ts), checked
 * by `npm run typecheck` and never run. Each `@ts-expect-error` line is a drift the type-check must refuse: if
 * one of them compiled, tsc would report the directive as unused and fail.
 */
import type { z } from 'zod';
import type { Answer, Body, Call, Query } from '@pharmacy/contracts/client';
import type { Batch, CreateUserRequest, User } from '@pharmacy/contracts';

declare const call: Call;
declare const userId: string;
const newUser = {
  email: 'ann@example.com',
  password: 'correct horse battery',
  full_name: 'Ann',
  role: 'cashier',
  branch_id: '0190f1a0-0000-7000-8000-000000000001',
} as const;

/** Mutual assignability: the generated type and the contracts' zod type describe the same values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agrees = <T extends true>(_: T) => undefined;

export async function drift(): Promise<void> {
  // What compiles: a registered method and path template, its parameters, body and answer.
  const user: User = await call('GET', '/users/{userId}', { params: { userId } });
  await call('POST', '/users', { body: newUser });
  await call('GET', '/users', { query: { page: 2, role: 'cashier' } });
  agrees<Same<Answer<'GET', '/users/{userId}'>, User>>(true);
  agrees<Same<Answer<'GET', '/purchases/{batchId}'>, Batch>>(true);
  agrees<Same<Body<'POST', '/users'>, z.input<typeof CreateUserRequest>>>(true);
  const page: Query<'GET', '/users'> = { page: 1, page_size: 50 };

  // @ts-expect-error a path no route registers (the route is /users)
  await call('GET', '/user');
  // @ts-expect-error a method the path does not have
  await call('DELETE', '/users');
  // @ts-expect-error the path template's parameter is missing
  await call('GET', '/users/{userId}');
  // @ts-expect-error a parameter under another name than the template's
  await call('GET', '/users/{userId}', { params: { id: userId } });
  // @ts-expect-error a body field the route does not know (a typo of role)
  await call('POST', '/users', { body: { ...newUser, rol: 'cashier' } });
  // @ts-expect-error a required body field left out
  await call('POST', '/users', { body: { email: 'a@b.c', password: 'x', full_name: 'A', role: 'cashier' } });
  // @ts-expect-error a body field of the wrong type
  await call('POST', '/users', { body: { ...newUser, full_name: 42 } });
  // @ts-expect-error a role the route's enum does not have
  await call('POST', '/users', { body: { ...newUser, role: 'janitor' } });
  // @ts-expect-error a body where the route takes none
  await call('GET', '/users/{userId}', { params: { userId }, body: {} });
  // @ts-expect-error a query value of the wrong type
  await call('GET', '/users', { query: { page: 'two' } });
  // @ts-expect-error a client function that promises another answer than the route gives
  const wrong: () => Promise<Batch> = () => call('GET', '/users/{userId}', { params: { userId } });
  // @ts-expect-error the answer has no such field
  user.name;
  // @ts-expect-error a User is not a Batch
  agrees<Same<Answer<'GET', '/users/{userId}'>, Batch>>(true);
  void [page, wrong];
}
