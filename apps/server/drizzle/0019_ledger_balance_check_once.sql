-- Replaces 0015_resolutions' version (which skipped re-checks through a session setting, so a
-- posting added after a SET CONSTRAINTS … IMMEDIATE check was not re-checked).
-- The deferred balance check (0009_money) ran once per posting, each run summing its ledger
-- transaction's postings: a transaction of n postings was checked n + 1 times at commit, which was
-- most of the commit time of a group of orders (orders/group-commit.ts). A posting whose ledger
-- transaction row was inserted by the same top-level database transaction is now left to that
-- row's own deferred check, which runs at the same commit and sees every posting of it; a posting
-- added to any other ledger transaction (an older one, or one inserted inside a savepoint, whose
-- xmin is the savepoint's) is checked as before.
CREATE OR REPLACE FUNCTION ledger_transaction_balanced() RETURNS trigger AS $$
DECLARE
  txn bigint;
  bad record;
BEGIN
  IF TG_TABLE_NAME = 'ledger_transactions' THEN
    txn := NEW.id;
  ELSE
    txn := NEW.transaction_id;
    IF EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = txn AND t.xmin::text::bigint = txid_current() % 4294967296) THEN
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
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
