-- Withdrawal limits and the large-deposit threshold become per coin (SOL has 9 decimals, USDC 6:
-- one number in minor units cannot mean the same for both).
--
-- Moved here:
-- * site_settings.withdrawal_auto_approve_limit, one number of minor units compared against every
--   coin's amounts. Its value goes to the coin it was written for: USDC, the platform's token (the
--   setting was described and seeded in micro-USDC). Every other coin starts at 0, which means
--   "always reviewed": a limit meant as 100 USDC was 0.1 SOL, and is not carried over as such.
--   Set each coin's limit on its page (Coin > Coin List).
-- * LARGE_DEPOSIT_ALERT (an environment variable, default USDC=10000,SOL=100), which the server no
--   longer reads: its default becomes the threshold of USDC and SOL. A deployment that had set
--   other values sets them again on each coin's page (the server logs a warning while it is set).
-- New: a per-user daily withdrawal limit per coin, none until set.
ALTER TABLE "coins" ADD COLUMN "auto_approve_limit" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "coins" ADD COLUMN "daily_withdrawal_limit" bigint;--> statement-breakpoint
ALTER TABLE "coins" ADD COLUMN "large_deposit_threshold" bigint;--> statement-breakpoint
UPDATE "coins" SET "auto_approve_limit" = (SELECT "withdrawal_auto_approve_limit" FROM "site_settings" WHERE "id" = 1) WHERE "symbol" = 'USDC' AND EXISTS (SELECT 1 FROM "site_settings" WHERE "id" = 1);--> statement-breakpoint
UPDATE "coins" SET "large_deposit_threshold" = 10000 * 10::numeric ^ "decimals" WHERE "symbol" = 'USDC';--> statement-breakpoint
UPDATE "coins" SET "large_deposit_threshold" = 100 * 10::numeric ^ "decimals" WHERE "symbol" = 'SOL';--> statement-breakpoint
ALTER TABLE "site_settings" DROP COLUMN "withdrawal_auto_approve_limit";--> statement-breakpoint
ALTER TABLE "coins" ADD CONSTRAINT "coins_auto_approve_limit_ck" CHECK ("coins"."auto_approve_limit" >= 0);--> statement-breakpoint
ALTER TABLE "coins" ADD CONSTRAINT "coins_daily_withdrawal_limit_ck" CHECK ("coins"."daily_withdrawal_limit" > 0);--> statement-breakpoint
ALTER TABLE "coins" ADD CONSTRAINT "coins_large_deposit_threshold_ck" CHECK ("coins"."large_deposit_threshold" > 0);
