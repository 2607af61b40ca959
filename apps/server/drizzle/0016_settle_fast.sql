DROP INDEX "positions_market_idx";--> statement-breakpoint
DROP INDEX "positions_status_idx";--> statement-breakpoint
CREATE INDEX "positions_market_open_idx" ON "positions" USING btree ("market_id","outcome") WHERE "positions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "positions_open_idx" ON "positions" USING btree ("updated_at","id") WHERE "positions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "positions_closed_idx" ON "positions" USING btree ("updated_at","id") WHERE "positions"."status" = 'closed';--> statement-breakpoint
-- Hand-written (drizzle does not model storage parameters). Ledger accounts are updated far more
-- often than inserted (every posting moves a balance): half of each page is left free, so a balance
-- update writes the new row version on the same page with no index entry (a heap-only tuple update),
-- which is what makes a settlement that pays 100 k holders in one UPDATE cheap. Applies to pages
-- written from now on (new databases, new accounts).
ALTER TABLE "ledger_accounts" SET (fillfactor = 50);
