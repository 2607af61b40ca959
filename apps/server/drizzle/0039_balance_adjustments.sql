-- Balance adjustments become records of their own (docs/money-controls.md, "Balance adjustments"):
-- pending until a second admin approves one at or above its coin's threshold, applied with the
-- ledger transaction that moved the money, or rejected; reversed by a linked opposite adjustment.
-- Every adjustment already in the ledger is listed here as applied, with its admin, time, words
-- (as the note) and the code `other` (or its code). The ledger itself is append-only and unchanged.
CREATE TABLE "balance_adjustments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "balance_adjustments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"coin_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"reason_code" text NOT NULL,
	"reason" text,
	"requested_by" bigint,
	"decided_by" bigint,
	"decided_at" timestamp (3) with time zone,
	"decision_reason_code" text,
	"decision_reason" text,
	"transaction_id" bigint,
	"reverses_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_adjustments_amount_ck" CHECK ("balance_adjustments"."amount" <> 0),
	CONSTRAINT "balance_adjustments_status_ck" CHECK ("balance_adjustments"."status" in ('pending','applied','rejected')),
	CONSTRAINT "balance_adjustments_applied_ck" CHECK (("balance_adjustments"."status" = 'applied') = ("balance_adjustments"."transaction_id" is not null)),
	CONSTRAINT "balance_adjustments_rejected_ck" CHECK (("balance_adjustments"."status" = 'rejected') = ("balance_adjustments"."decision_reason_code" is not null)),
	CONSTRAINT "balance_adjustments_reverses_ck" CHECK ("balance_adjustments"."reverses_id" is null or "balance_adjustments"."reverses_id" <> "balance_adjustments"."id")
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_ck";--> statement-breakpoint
DROP INDEX "ledger_transactions_once_uq";--> statement-breakpoint
ALTER TABLE "coins" ADD COLUMN "adjustment_approval_threshold" bigint;--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_reverses_id_balance_adjustments_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."balance_adjustments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_adjustments_created_idx" ON "balance_adjustments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "balance_adjustments_user_created_idx" ON "balance_adjustments" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "balance_adjustments_status_created_idx" ON "balance_adjustments" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "balance_adjustments_coin_idx" ON "balance_adjustments" USING btree ("coin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "balance_adjustments_reversal_uq" ON "balance_adjustments" USING btree ("reverses_id") WHERE "balance_adjustments"."status" <> 'rejected';--> statement-breakpoint
INSERT INTO "balance_adjustments" ("user_id", "coin_id", "amount", "status", "reason_code", "reason", "requested_by", "transaction_id", "created_at", "updated_at")
SELECT a."user_id", p."coin_id", p."amount", 'applied', coalesce(t."reason_code", 'other'), t."reason", t."admin_id", t."id", t."created_at", t."created_at"
FROM "ledger_transactions" t
JOIN "ledger_postings" p ON p."transaction_id" = t."id"
JOIN "ledger_accounts" a ON a."id" = p."account_id" AND a."owner_kind" = 'user'
WHERE t."cause" = 'adjustment'
ORDER BY t."id";--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_once_uq" ON "ledger_transactions" USING btree ("cause","ref_type","ref_id") WHERE "ledger_transactions"."cause" in ('deposit','withdrawal_hold','withdrawal_release','withdrawal_complete','fiat_payment','fiat_refund','settlement','pack_purchase','reward','adjustment');--> statement-breakpoint
ALTER TABLE "coins" ADD CONSTRAINT "coins_adjustment_approval_threshold_ck" CHECK ("coins"."adjustment_approval_threshold" > 0);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_ck" CHECK ("notifications"."kind" in ('ticket_new','ticket_waiting','withdrawal_review','withdrawal_second_approval','adjustment_second_approval','market_unresolved','large_deposit','mail_failed'));