import { z } from 'zod';

export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  mode: z.enum(['till', 'central']),
  uptime_s: z.number(),
  database: z.object({
    status: z.enum(['ok', 'error']),
    latency_ms: z.number().optional(),
    detail: z.string().optional(),
  }),
});
