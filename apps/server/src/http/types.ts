import type { FastifyInstance, FastifyBaseLogger, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AdminActor } from '../context.js';
import type { AdminRow, SessionRow } from '../modules/auth/sessions.js';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    /** IANA zone from the `timezone` header (invalid → UTC). */
    timezone: string;
    admin: AdminRow | null;
    session: SessionRow | null;
    actor(): AdminActor;
  }
}
