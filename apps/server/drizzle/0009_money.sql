CREATE TABLE "users" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"email" text NOT NULL,
	"wallet_address" text,
	"status" text DEFAULT 'active' NOT NULL,
	"blocked_reason" text,
	"blocked_at" timestamp (3) with time zone,
	"blocked_by" bigint,
	"email_verified" boolean DEFAULT false NOT NULL,
	"country" text,
	"signup_ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp (3) with time zone,
	CONSTRAINT "users_status_ck" CHECK ("users"."status" in ('active','blocked')),
	CONSTRAINT "users_blocked_reason_ck" CHECK (("users"."status" = 'blocked') = ("users"."blocked_reason" is not null)),
	CONSTRAINT "users_country_ck" CHECK ("users"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "users_username_ck" CHECK (length("users"."username") between 3 and 32)
);
--> statement-breakpoint
CREATE TABLE "coins" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "coins_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"network" text DEFAULT 'devnet' NOT NULL,
	"mint_address" text,
	"decimals" integer NOT NULL,
	"logo_url" text DEFAULT '' NOT NULL,
	"deposit_enabled" boolean DEFAULT true NOT NULL,
	"withdraw_enabled" boolean DEFAULT true NOT NULL,
	"min_withdrawal" bigint DEFAULT 0 NOT NULL,
	"withdrawal_fee" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coins_symbol_ck" CHECK ("coins"."symbol" ~ '^[A-Z0-9]{2,10}$'),
	CONSTRAINT "coins_network_ck" CHECK ("coins"."network" in ('devnet','testnet','mainnet-beta')),
	CONSTRAINT "coins_decimals_ck" CHECK ("coins"."decimals" between 0 and 18),
	CONSTRAINT "coins_min_withdrawal_ck" CHECK ("coins"."min_withdrawal" >= 0),
	CONSTRAINT "coins_withdrawal_fee_ck" CHECK ("coins"."withdrawal_fee" >= 0),
	CONSTRAINT "coins_status_ck" CHECK ("coins"."status" in ('active','inactive'))
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_kind" text NOT NULL,
	"user_id" bigint,
	"bucket" text,
	"platform_code" text,
	"coin_id" bigint NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_id_coin_uq" UNIQUE("id","coin_id"),
	CONSTRAINT "ledger_accounts_owner_ck" CHECK (("ledger_accounts"."owner_kind" = 'user' and "ledger_accounts"."user_id" is not null and coalesce("ledger_accounts"."bucket" in ('available','held'), false) and "ledger_accounts"."platform_code" is null)
        or ("ledger_accounts"."owner_kind" = 'platform' and "ledger_accounts"."user_id" is null and "ledger_accounts"."bucket" is null and coalesce("ledger_accounts"."platform_code" in ('hot_wallet','fiat_clearing','adjustments','fees_income','pack_sales','store_sales','market_collateral'), false))),
	CONSTRAINT "ledger_accounts_balance_ck" CHECK ("ledger_accounts"."balance" >= 0 or ("ledger_accounts"."owner_kind" = 'platform' and "ledger_accounts"."platform_code" in ('hot_wallet','fiat_clearing','adjustments')))
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_postings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"coin_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "ledger_postings_amount_ck" CHECK ("ledger_postings"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"cause" text NOT NULL,
	"ref_type" text,
	"ref_id" bigint,
	"reason" text,
	"actor_kind" text NOT NULL,
	"admin_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_cause_ck" CHECK ("ledger_transactions"."cause" in ('deposit','withdrawal_hold','withdrawal_release','withdrawal_complete','fiat_payment','fiat_refund','fee','trade','settlement','pack_purchase','store_sale','adjustment')),
	CONSTRAINT "ledger_transactions_ref_ck" CHECK (("ledger_transactions"."ref_type" is null) = ("ledger_transactions"."ref_id" is null)),
	CONSTRAINT "ledger_transactions_reason_ck" CHECK ("ledger_transactions"."cause" <> 'adjustment' or length(trim(coalesce("ledger_transactions"."reason", ''))) > 0),
	CONSTRAINT "ledger_transactions_actor_ck" CHECK ("ledger_transactions"."actor_kind" in ('admin','platform','system') and ("ledger_transactions"."actor_kind" = 'admin') = ("ledger_transactions"."admin_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deposits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"coin_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"tx_signature" text NOT NULL,
	"from_address" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"failed_reason" text,
	"reviewed_by" bigint,
	"reviewed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposits_amount_ck" CHECK ("deposits"."amount" > 0),
	CONSTRAINT "deposits_status_ck" CHECK ("deposits"."status" in ('pending','confirmed','failed')),
	CONSTRAINT "deposits_confirmed_ck" CHECK (("deposits"."status" = 'confirmed') = ("deposits"."confirmed_at" is not null)),
	CONSTRAINT "deposits_failed_ck" CHECK (("deposits"."status" = 'failed') = ("deposits"."failed_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withdrawals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"coin_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"to_address" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"auto_approved" boolean DEFAULT false NOT NULL,
	"reviewed_by" bigint,
	"reviewed_at" timestamp (3) with time zone,
	"reason" text,
	"tx_signature" text,
	"processed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_amount_ck" CHECK ("withdrawals"."amount" > 0 and "withdrawals"."fee" >= 0),
	CONSTRAINT "withdrawals_status_ck" CHECK ("withdrawals"."status" in ('requested','approved','completed','rejected','failed')),
	CONSTRAINT "withdrawals_completed_ck" CHECK (("withdrawals"."status" = 'completed') = ("withdrawals"."tx_signature" is not null)),
	CONSTRAINT "withdrawals_reason_ck" CHECK ("withdrawals"."status" not in ('rejected','failed') or "withdrawals"."reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "fiat_payments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fiat_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"purpose" text NOT NULL,
	"coin_id" bigint,
	"coin_amount" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"succeeded_at" timestamp (3) with time zone,
	"refunded_at" timestamp (3) with time zone,
	"reviewed_by" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fiat_payments_amount_ck" CHECK ("fiat_payments"."amount" > 0),
	CONSTRAINT "fiat_payments_currency_ck" CHECK ("fiat_payments"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "fiat_payments_purpose_ck" CHECK ("fiat_payments"."purpose" in ('coin_topup','pack_purchase')),
	CONSTRAINT "fiat_payments_topup_ck" CHECK (("fiat_payments"."purpose" = 'coin_topup' and "fiat_payments"."coin_id" is not null and "fiat_payments"."coin_amount" is not null and "fiat_payments"."coin_amount" > 0)
        or ("fiat_payments"."purpose" = 'pack_purchase' and "fiat_payments"."coin_id" is null and "fiat_payments"."coin_amount" is null)),
	CONSTRAINT "fiat_payments_status_ck" CHECK ("fiat_payments"."status" in ('pending','succeeded','failed','refunded')),
	CONSTRAINT "fiat_payments_reason_ck" CHECK ("fiat_payments"."status" not in ('failed','refunded') or "fiat_payments"."reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_account_coin_fk" FOREIGN KEY ("account_id","coin_id") REFERENCES "public"."ledger_accounts"("id","coin_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiat_payments" ADD CONSTRAINT "fiat_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiat_payments" ADD CONSTRAINT "fiat_payments_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_uq" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_wallet_uq" ON "users" USING btree ("wallet_address");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_status_created_idx" ON "users" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "users_country_created_idx" ON "users" USING btree ("country","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "coins_symbol_uq" ON "coins" USING btree ("symbol");--> statement-breakpoint
CREATE UNIQUE INDEX "coins_mint_uq" ON "coins" USING btree ("network","mint_address");--> statement-breakpoint
CREATE INDEX "coins_created_idx" ON "coins" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_user_uq" ON "ledger_accounts" USING btree ("user_id","coin_id","bucket");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_platform_uq" ON "ledger_accounts" USING btree ("platform_code","coin_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_transaction_idx" ON "ledger_postings" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_account_idx" ON "ledger_postings" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_ref_idx" ON "ledger_transactions" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_created_idx" ON "ledger_transactions" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_once_uq" ON "ledger_transactions" USING btree ("cause","ref_type","ref_id") WHERE "ledger_transactions"."cause" in ('deposit','withdrawal_hold','withdrawal_release','withdrawal_complete','fiat_payment','fiat_refund');--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_tx_signature_uq" ON "deposits" USING btree ("tx_signature");--> statement-breakpoint
CREATE INDEX "deposits_created_idx" ON "deposits" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "deposits_status_created_idx" ON "deposits" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "deposits_user_created_idx" ON "deposits" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "deposits_coin_idx" ON "deposits" USING btree ("coin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_tx_signature_uq" ON "withdrawals" USING btree ("tx_signature");--> statement-breakpoint
CREATE INDEX "withdrawals_created_idx" ON "withdrawals" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_created_idx" ON "withdrawals" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_coin_idx" ON "withdrawals" USING btree ("coin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fiat_payments_provider_ref_uq" ON "fiat_payments" USING btree ("provider","provider_reference");--> statement-breakpoint
CREATE INDEX "fiat_payments_created_idx" ON "fiat_payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "fiat_payments_status_created_idx" ON "fiat_payments" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "fiat_payments_user_created_idx" ON "fiat_payments" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- Hand-written (drizzle cannot express triggers). The ledger is append-only: a correction is a new
-- transaction. Row triggers refuse UPDATE and DELETE; TRUNCATE needs a statement trigger.
CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: a correction is a new ledger transaction', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_no_update BEFORE UPDATE OR DELETE ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_no_update BEFORE UPDATE OR DELETE ON ledger_postings FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
-- At commit, every ledger transaction has postings and they sum to zero per coin: the database
-- refuses an unbalanced transaction even if the code that checks it first were wrong.
CREATE OR REPLACE FUNCTION ledger_transaction_balanced() RETURNS trigger AS $$
DECLARE
  txn bigint;
  bad record;
BEGIN
  IF TG_TABLE_NAME = 'ledger_transactions' THEN
    txn := NEW.id;
  ELSE
    txn := NEW.transaction_id;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ledger_postings WHERE transaction_id = txn) THEN
    RAISE EXCEPTION 'ledger transaction % has no postings', txn USING ERRCODE = '23514';
  END IF;
  SELECT coin_id, sum(amount) AS total INTO bad FROM ledger_postings WHERE transaction_id = txn GROUP BY coin_id HAVING sum(amount) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: coin % sums to %', txn, bad.coin_id, bad.total USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();
