ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_reason_ck";--> statement-breakpoint
ALTER TABLE "deposits" DROP CONSTRAINT "deposits_failed_ck";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_reason_ck";--> statement-breakpoint
ALTER TABLE "fiat_payments" DROP CONSTRAINT "fiat_payments_reason_ck";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "fiat_payments" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "halt_reason_code" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "halt_reason" text;--> statement-breakpoint
-- Reason codes (docs/money-controls.md, "Reason codes"). Records decided before them keep their
-- words as the note and get the code `other`: a rejected or failed withdrawal, a failed deposit, a
-- refunded payment, a market halted now. The ledger is append-only: its adjustments written before
-- keep no code (the check is NOT VALID, so it holds for new rows only); 0039 lists them as
-- balance adjustments with the code `other`.
UPDATE "withdrawals" SET "reason_code" = 'other' WHERE "status" IN ('rejected','failed');--> statement-breakpoint
UPDATE "deposits" SET "reason_code" = 'other' WHERE "status" = 'failed';--> statement-breakpoint
UPDATE "fiat_payments" SET "reason_code" = 'other' WHERE "status" = 'refunded';--> statement-breakpoint
UPDATE "markets" SET "halt_reason_code" = 'other', "halt_reason" = 'Halted before reason codes were recorded' WHERE "status" = 'halted';--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_reason_ck" CHECK ("ledger_transactions"."cause" <> 'adjustment' or "ledger_transactions"."reason_code" is not null) NOT VALID;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_failed_ck" CHECK (("deposits"."status" = 'failed') = ("deposits"."reason_code" is not null));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_reason_ck" CHECK ("withdrawals"."status" not in ('rejected','failed') or "withdrawals"."reason_code" is not null);--> statement-breakpoint
ALTER TABLE "fiat_payments" ADD CONSTRAINT "fiat_payments_reason_ck" CHECK (("fiat_payments"."status" <> 'failed' or "fiat_payments"."reason" is not null) and ("fiat_payments"."status" <> 'refunded' or "fiat_payments"."reason_code" is not null));--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_halt_reason_ck" CHECK ("markets"."status" <> 'halted' or "markets"."halt_reason_code" is not null);