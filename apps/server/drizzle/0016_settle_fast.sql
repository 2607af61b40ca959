ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_transaction_id_ledger_transactions_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_account_coin_fk";
--> statement-breakpoint
DROP INDEX "positions_market_idx";--> statement-breakpoint
DROP INDEX "positions_status_idx";--> statement-breakpoint
CREATE INDEX "positions_market_open_idx" ON "positions" USING btree ("market_id","outcome") WHERE "positions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "positions_open_idx" ON "positions" USING btree ("updated_at","id") WHERE "positions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "positions_closed_idx" ON "positions" USING btree ("updated_at","id") WHERE "positions"."status" = 'closed';--> statement-breakpoint
-- Hand-written (drizzle does not model storage parameters or triggers).
-- Ledger accounts are updated far more often than inserted (every posting moves a balance): half of
-- each page is left free, so a balance update writes the new row version on the same page with no
-- index entry (a heap-only tuple update): a settlement paying 100 k holders in one UPDATE stays
-- cheap. Applies to pages written from now on (new databases, new accounts).
ALTER TABLE "ledger_accounts" SET (fillfactor = 50);
--> statement-breakpoint
-- The postings' references, checked once per ledger transaction at commit instead of by a foreign-key
-- trigger per posting: the deferred row triggers of one transaction's postings fire one after the
-- other at commit, when its postings are final, so after the first check the rest skip it (the last
-- checked id is kept for the rest of the database transaction). Checked: the transaction exists,
-- every posting names an existing account whose coin is the posting's coin, it has postings, and
-- they sum to zero per coin.
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
    IF NOT EXISTS (SELECT 1 FROM ledger_transactions WHERE id = txn) THEN
      RAISE EXCEPTION 'ledger_postings_transaction: posting % names ledger transaction %, which does not exist', NEW.id, txn USING ERRCODE = '23503';
    END IF;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ledger_postings WHERE transaction_id = txn) THEN
    RAISE EXCEPTION 'ledger transaction % has no postings', txn USING ERRCODE = '23514';
  END IF;
  SELECT p.id, p.account_id, p.coin_id INTO bad FROM ledger_postings p
    LEFT JOIN ledger_accounts a ON a.id = p.account_id AND a.coin_id = p.coin_id
    WHERE p.transaction_id = txn AND a.id IS NULL LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger_postings_account_coin: posting % of ledger transaction % names account % in coin %: no such account in that coin', bad.id, txn, bad.account_id, bad.coin_id USING ERRCODE = '23503';
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
--> statement-breakpoint
-- What the foreign keys also gave: an account that postings name is never deleted or re-keyed.
CREATE OR REPLACE FUNCTION ledger_account_keep() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION 'ledger accounts are never deleted' USING ERRCODE = '23503';
  END IF;
  IF TG_OP = 'DELETE' OR NEW.id <> OLD.id OR NEW.coin_id <> OLD.coin_id THEN
    RAISE EXCEPTION 'ledger accounts are never deleted or re-keyed (account %)', OLD.id USING ERRCODE = '23503';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_keep BEFORE UPDATE OF id, coin_id OR DELETE ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_account_keep();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_account_keep();
