ALTER TABLE "coins" ADD COLUMN "display_decimals" integer;--> statement-breakpoint
-- Existing coins show at most 4 decimals (defaultDisplayDecimals); USDC, as bootstrap creates it, 2.
UPDATE "coins" SET "display_decimals" = CASE WHEN "symbol" = 'USDC' THEN least("decimals", 2) ELSE least("decimals", 4) END;--> statement-breakpoint
ALTER TABLE "coins" ALTER COLUMN "display_decimals" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "deposits_coin_amount_idx" ON "deposits" USING btree ("coin_id","amount","id");--> statement-breakpoint
CREATE INDEX "withdrawals_coin_amount_idx" ON "withdrawals" USING btree ("coin_id","amount","id");--> statement-breakpoint
DROP INDEX "deposits_coin_idx";--> statement-breakpoint
DROP INDEX "withdrawals_coin_idx";--> statement-breakpoint
CREATE INDEX "withdrawals_coin_fee_idx" ON "withdrawals" USING btree ("coin_id","fee","id");--> statement-breakpoint
CREATE INDEX "fiat_payments_currency_amount_idx" ON "fiat_payments" USING btree ("currency","amount","id");--> statement-breakpoint
CREATE INDEX "orders_coin_held_idx" ON "orders" USING btree ("coin_id","held","id");--> statement-breakpoint
CREATE INDEX "orders_coin_fees_idx" ON "orders" USING btree ("coin_id","fees","id");--> statement-breakpoint
CREATE INDEX "trades_coin_taker_fee_idx" ON "trades" USING btree ("coin_id","taker_fee","id");--> statement-breakpoint
CREATE INDEX "trades_coin_maker_fee_idx" ON "trades" USING btree ("coin_id","maker_fee","id");--> statement-breakpoint
ALTER TABLE "coins" ADD CONSTRAINT "coins_display_decimals_ck" CHECK ("coins"."display_decimals" between 0 and "coins"."decimals");