ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_transaction_id_ledger_transactions_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_account_coin_fk";
--> statement-breakpoint
DROP INDEX "positions_market_idx";--> statement-breakpoint
DROP INDEX "positions_status_idx";--> statement-breakpoint
DROP INDEX "ledger_postings_transaction_idx";--> statement-breakpoint
CREATE INDEX "positions_market_open_idx" ON "positions" USING btree ("market_id","outcome") WHERE "positions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "positions_open_idx" ON "positions" USING btree ("updated_at","id") WHERE "positions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "positions_closed_idx" ON "positions" USING btree ("updated_at","id") WHERE "positions"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "ledger_postings_transaction_idx" ON "ledger_postings" USING btree ("transaction_id","id");
--> statement-breakpoint
-- Hand-written (drizzle does not model storage parameters or triggers).
-- Ledger accounts are updated far more often than inserted (every posting moves a balance): half of
-- each page is left free, so a balance update writes the new row version on the same page with no
-- index entry (a heap-only tuple update): a settlement paying 100 k holders in one UPDATE stays
-- cheap. Applies to pages written from now on (new databases, new accounts).
ALTER TABLE "ledger_accounts" SET (fillfactor = 50);
--> statement-breakpoint
-- The postings' references and sums, checked once per INSERT statement and set-based, instead of a
-- foreign-key trigger per posting and a deferred trigger event per posting (a settlement inserts 100 k
-- postings in one statement: 300 k per-row trigger calls cost more than its index upkeep). The
-- statement's postings must name existing transactions and accounts of their coin, and every
-- ledger transaction they touch must balance once the statement is done: a ledger transaction's
-- postings are inserted together, in one statement (postTransaction and postCreditsFrom do), so a
-- committed one cannot be changed by appending to it. Postings are never updated or deleted, so that holds at commit too;
-- the deferred trigger on ledger_transactions is left with what only commit can tell: each new
-- ledger transaction has postings (this replaces 0019's version of the function, whose per-posting
-- deferred trigger is dropped below).
CREATE OR REPLACE FUNCTION ledger_transaction_balanced() RETURNS trigger AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ledger_postings WHERE transaction_id = NEW.id) THEN
    RAISE EXCEPTION 'ledger transaction % has no postings', NEW.id USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_postings_checked() RETURNS trigger AS $$
DECLARE
  bad record;
BEGIN
  -- Every posting names an existing account in its coin, and an existing ledger transaction.
  SELECT n.id, n.transaction_id, n.account_id, n.coin_id INTO bad FROM new_postings n
    LEFT JOIN ledger_accounts a ON a.id = n.account_id AND a.coin_id = n.coin_id
    WHERE a.id IS NULL LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger_postings_account_coin: posting % of ledger transaction % names account % in coin %: no such account in that coin', bad.id, bad.transaction_id, bad.account_id, bad.coin_id USING ERRCODE = '23503';
  END IF;
  SELECT n.transaction_id INTO bad FROM (SELECT DISTINCT transaction_id FROM new_postings) n
    WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = n.transaction_id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger_postings_transaction: postings name ledger transaction %, which does not exist', bad.transaction_id USING ERRCODE = '23503';
  END IF;
  -- A ledger transaction's postings come in one statement: none older than these ...
  SELECT n.transaction_id INTO bad FROM (SELECT transaction_id, min(id) AS first FROM new_postings GROUP BY transaction_id) n
    WHERE EXISTS (SELECT 1 FROM ledger_postings p WHERE p.transaction_id = n.transaction_id AND p.id < n.first) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: it already has postings, and a ledger transaction''s postings are inserted together', bad.transaction_id USING ERRCODE = '23514';
  END IF;
  -- ... and they sum to zero per coin.
  SELECT transaction_id, coin_id, sum(amount) AS total INTO bad FROM new_postings
    GROUP BY transaction_id, coin_id HAVING sum(amount) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: coin % sums to %', bad.transaction_id, bad.coin_id, bad.total USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER ledger_postings_balanced ON ledger_postings;
--> statement-breakpoint
CREATE TRIGGER ledger_postings_checked AFTER INSERT ON ledger_postings REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_postings_checked();
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
