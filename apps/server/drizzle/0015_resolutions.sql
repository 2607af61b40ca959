CREATE TABLE "resolutions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "resolutions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"market_id" bigint NOT NULL,
	"result" text NOT NULL,
	"source" text NOT NULL,
	"evidence" text NOT NULL,
	"actor_kind" text NOT NULL,
	"admin_id" bigint,
	"coin_id" bigint NOT NULL,
	"collateral" bigint NOT NULL,
	"total_paid" bigint NOT NULL,
	"holders" integer NOT NULL,
	"positions" integer NOT NULL,
	"pairs" bigint NOT NULL,
	"transaction_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resolutions_result_ck" CHECK ("resolutions"."result" in ('YES','NO','VOID')),
	CONSTRAINT "resolutions_actor_ck" CHECK ("resolutions"."actor_kind" in ('admin','system') and ("resolutions"."actor_kind" = 'admin') = ("resolutions"."admin_id" is not null)),
	CONSTRAINT "resolutions_paid_ck" CHECK ("resolutions"."total_paid" = "resolutions"."collateral" and "resolutions"."total_paid" >= 0 and "resolutions"."holders" >= 0 and "resolutions"."positions" >= 0 and "resolutions"."pairs" >= 0)
);
--> statement-breakpoint
DROP INDEX "ledger_transactions_once_uq";--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "settlement" bigint;--> statement-breakpoint
ALTER TABLE "resolutions" ADD CONSTRAINT "resolutions_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "resolutions_market_uq" ON "resolutions" USING btree ("market_id");--> statement-breakpoint
CREATE INDEX "resolutions_created_idx" ON "resolutions" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_once_uq" ON "ledger_transactions" USING btree ("cause","ref_type","ref_id") WHERE "ledger_transactions"."cause" in ('deposit','withdrawal_hold','withdrawal_release','withdrawal_complete','fiat_payment','fiat_refund','settlement');--> statement-breakpoint
-- The "balanced" check runs once per ledger transaction at commit instead of once per posting: the
-- deferred row triggers of one transaction's postings fire one after the other at commit, when its
-- postings are final, so after the first check the rest skip it (the last checked id is kept for the
-- rest of the database transaction). A settlement paying 100 k holders is one ledger transaction of
-- 100 k postings: re-summing it per posting would be quadratic.
CREATE OR REPLACE FUNCTION ledger_transaction_balanced() RETURNS trigger AS $$
DECLARE
  txn bigint;
  bad record;
BEGIN
  IF TG_TABLE_NAME = 'ledger_transactions' THEN
    txn := NEW.id;
  ELSE
    txn := NEW.transaction_id;
    IF current_setting('pitboss.ledger_balanced', true) = txn::text THEN
      RETURN NULL;
    END IF;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ledger_postings WHERE transaction_id = txn) THEN
    RAISE EXCEPTION 'ledger transaction % has no postings', txn USING ERRCODE = '23514';
  END IF;
  SELECT coin_id, sum(amount) AS total INTO bad FROM ledger_postings WHERE transaction_id = txn GROUP BY coin_id HAVING sum(amount) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: coin % sums to %', txn, bad.coin_id, bad.total USING ERRCODE = '23514';
  END IF;
  IF TG_TABLE_NAME = 'ledger_postings' THEN
    PERFORM set_config('pitboss.ledger_balanced', txn::text, true);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
