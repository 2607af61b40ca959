-- Hand-written: trigram operators for the users list's free-text search (ILIKE '%…%' on username or
-- email). pg_trgm is a trusted contrib extension (any database owner may create it); PGlite loads it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "users_username_idx" ON "users" USING btree ("username","id");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email","id");--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);